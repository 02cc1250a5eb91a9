-- The slowest calls of each operation `report why` lists, with their split (tj_call_splits, one row per call decided as
-- the events arrived). Operations as in why-operations.sql; {contexts} are their first context lines (read by the
-- table's key). The calls are those ending in [from, to).
SELECT
    operation, ts, connect_id, user, context_first AS context, duration_us AS us, db_us, lock_wait_us, cpu_us, thread_wait_us, other_us,
    dbpids, flags
FROM
(
    SELECT
        *,
        arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context_first, p) AND (re = '' OR match(context_first, re))
                                       AND (ib = '' OR infobase = ib),
                        {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule,
        if(rule = 0, context_first, {op_names:Array(String)}[rule]) AS operation
    FROM tj_call_splits
    WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)} AND context_first IN {contexts:Array(String)}
)
WHERE operation IN {names:Array(String)}
ORDER BY operation, duration_us DESC, ts
LIMIT {per:UInt32} BY operation
