-- The slowest calls of each operation `report why` lists, with their split (tj_call_splits, one row per call decided as
-- the events arrived). Operations as in why-operations.sql; {contexts} are their first context lines (read by the
-- table's key). The calls are those ending in [from, to).
-- Only the calls at or above a floor are read whole: the {per}-th longest of the operation's hourly maxima over the
-- window's whole hours (tj_call_split_hour.max_us, 064_tj_call_hours.sql). Each of those maxima is a different call
-- of the operation inside the window, so its {per} slowest calls all reach the floor; with fewer such hours the floor
-- is 0. The floor is looked up per infobase and first context line (its operation's), so the scan's filter is cheap.
WITH floors AS
(
    SELECT groupArray(key) AS keys, groupArray(floor_us) AS floors
    FROM
    (
        SELECT operation, groupUniqArray(concat(infobase, char(0), context)) AS op_keys,
            if(count() < {per:UInt32}, toUInt64(0), arrayReverseSort(groupArray(max_us))[{per:UInt32}]) AS floor_us
        FROM
        (
            SELECT
                infobase, context, max_us,
                arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context, p) AND (re = '' OR match(context, re))
                                               AND (ib = '' OR infobase = ib),
                                {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule,
                if(rule = 0, context, {op_names:Array(String)}[rule]) AS operation
            FROM tj_call_split_hour
            WHERE context IN {contexts:Array(String)}
              AND hour >= toStartOfHour({from:DateTime64(6)} + INTERVAL 3599999999 MICROSECOND) AND hour + INTERVAL 1 HOUR <= {to:DateTime64(6)}
        )
        WHERE operation IN {names:Array(String)}
        GROUP BY operation
    )
    ARRAY JOIN op_keys AS key
)
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
      AND duration_us >= transform(concat(infobase, char(0), context_first), (SELECT keys FROM floors), (SELECT floors FROM floors), toUInt64(0))
)
WHERE operation IN {names:Array(String)}
ORDER BY operation, duration_us DESC, ts
LIMIT {per:UInt32} BY operation
