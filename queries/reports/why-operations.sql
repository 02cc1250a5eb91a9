-- `report why` (issue #25 item 1): per key operation, where its server calls' wall time went. The splits were decided
-- as the events arrived (tj_call_splits, queries/ddl/062_tj_call_splits.sql; the rule is docs/tj-format.md §4.3) and
-- are summed here from the per-minute rollup plus the raw rows of the window's partial minutes (tj_call_split_window).
-- A call belongs to the first configured operation whose context rule matches its first context line (the rule of
-- apdex.sql and sql-contexts.sql), else to that line itself. Its APDEX uses the rule's T, else the T of the
-- performance-evaluation export's operation of the same name (key_operations), else none. Times are whole µs: each
-- part of a call is capped so that the parts add up to its duration (thread-accounts.ts), so the sums add up exactly.
-- The statement and duration-bucket maps are merged by why-details.sql for the operations listed only: merging them
-- for every operation was most of the report's time (bench/report-why-scale.ts).
SELECT
    operation,
    toUInt64(sum(n)) AS calls,
    toUInt64(sum(duration_us_sum)) AS us,
    toUInt64(sum(db_us_sum)) AS db_us,
    toUInt64(sum(lock_wait_us_sum)) AS lock_wait_us,
    toUInt64(sum(cpu_us_sum)) AS cpu_us,
    toUInt64(sum(thread_wait_us_sum)) AS thread_wait_us,
    toUInt64(sum(other_us_sum)) AS other_us,
    sumMap(flagged.1, flagged.2) AS flags,
    any(rule_target_s) AS rule_target_s,
    groupUniqArray(context) AS contexts
FROM
(
    SELECT
        context, n, duration_us_sum, db_us_sum, lock_wait_us_sum, cpu_us_sum, thread_wait_us_sum, other_us_sum, flagged,
        arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context, p) AND (re = '' OR match(context, re))
                                       AND (ib = '' OR infobase = ib),
                        {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule,
        if(rule = 0, context, {op_names:Array(String)}[rule]) AS operation,
        if(rule = 0, NULL, {op_targets:Array(Nullable(Float64))}[rule]) AS rule_target_s
    FROM tj_call_split_window(from = {from:DateTime64(6)}, to = {to:DateTime64(6)})
)
WHERE {operation:String} = '' OR operation = {operation:String}
GROUP BY operation
ORDER BY us DESC, operation
