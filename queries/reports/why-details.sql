-- For the operations `report why` lists ({names}; grouping as why-operations.sql): their calls per 10 ms duration
-- bucket (APDEX at the operation's T) and their top {per} statement shapes by time inside their calls, from the
-- per-minute rollups and the window's partial minutes (tj_call_split_window, tj_call_sql_window), for those
-- operations only: {contexts} are their first context lines (why-operations.sql), so the rollups are read by their
-- key's leading context instead of whole. `kind` tells the two row sets apart: 'buckets' (statements empty) or 'sql' (one shape per row).
SELECT operation, 'buckets' AS kind, sumMapMerge(buckets_10ms) AS buckets, toUInt64(0) AS sql_hash, toUInt64(0) AS count, toUInt64(0) AS us
FROM
(
    SELECT
        buckets_10ms,
        arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context, p) AND (re = '' OR match(context, re))
                                       AND (ib = '' OR infobase = ib),
                        {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule,
        if(rule = 0, context, {op_names:Array(String)}[rule]) AS operation
    FROM tj_call_split_window(from = {from:DateTime64(6)}, to = {to:DateTime64(6)})
    WHERE context IN {contexts:Array(String)}
)
WHERE operation IN {names:Array(String)}
GROUP BY operation
UNION ALL
SELECT operation, 'sql', CAST(([], []) AS Tuple(Array(UInt32), Array(UInt64))), sql_hash, count, us
FROM
(
    SELECT operation, sql_hash, toUInt64(sum(n)) AS count, toUInt64(sum(us)) AS us
    FROM
    (
        SELECT
            sql_hash, n, us,
            arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context, p) AND (re = '' OR match(context, re))
                                           AND (ib = '' OR infobase = ib),
                            {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule,
            if(rule = 0, context, {op_names:Array(String)}[rule]) AS operation
        FROM tj_call_sql_window(from = {from:DateTime64(6)}, to = {to:DateTime64(6)})
        WHERE context IN {contexts:Array(String)}
    )
    WHERE operation IN {names:Array(String)}
    GROUP BY operation, sql_hash
    ORDER BY operation, us DESC, sql_hash
    LIMIT {per:UInt32} BY operation
)
