-- Who ran the given statements ({hashes}: sql_hash as texts, 64-bit numbers do not survive JSON) in a window (`report sql`): per statement shape its first context lines (the form or
-- command of the 1C call) with count and time, most time first, at most {per} each, and the key operation of the
-- config (`apdex.operations`, queries/reports/key-operation-params.ts) each context belongs to, by the same rule as
-- apdex.sql: the first operation whose prefix or regular expression matches the line (and infobase), else ''.
SELECT
    toString(sql_hash) AS sql_hash,
    context,
    sum(n) AS count,
    round(sum(duration_us_sum) / 1e6, 6) AS seconds,
    operation
FROM
(
    SELECT
        sql_hash, context, n, duration_us_sum,
        {op_names:Array(String)}[arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context, p) AND (re = '' OR match(context, re))
                                                    AND (ib = '' OR infobase = ib),
                                 {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)})] AS operation
    FROM tj_sql_context_window(from = {from:DateTime64(6)}, to = {to:DateTime64(6)})
    WHERE sql_hash IN (SELECT arrayJoin(arrayMap(h -> toUInt64(h), {hashes:Array(String)})))
)
GROUP BY sql_hash, context, operation
ORDER BY sql_hash, seconds DESC, context
LIMIT {per:UInt32} BY sql_hash
