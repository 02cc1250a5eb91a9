-- PostgreSQL's side of the operations `report why` lists: the pg_activity samples of the backends their calls used
-- (the dbpids of each call's DB events, tj_call_splits) taken while the call ran, per wait event. A backend serves one
-- 1C connection, whose calls do not overlap, so each sample belongs to the latest call on its pid that began before
-- it, if that call had not ended yet (an ASOF join). Counted as pg_wait_minute counts (048_pg_activity.sql): an
-- active backend waiting on nothing is `CPU`; idle samples are not waits and are left out. Empty when nothing sampled.
SELECT operation, kind AS wait_event_type, s.wait_event AS wait_event, toUInt64(count()) AS samples
FROM
(
    SELECT toDateTime64(ts, 6) AS ts, pid, if(wait_event_type = '' AND state = 'active', 'CPU', wait_event_type) AS kind, wait_event
    FROM pg_activity
    WHERE ts >= {from:DateTime64(6)} - INTERVAL 1 HOUR AND ts < {to:DateTime64(6)} AND kind != ''
) AS s
ASOF INNER JOIN
(
    SELECT operation, dbpid, ts_start, ts
    FROM
    (
        SELECT
            arrayJoin(dbpids) AS dbpid, ts_start, ts,
            arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context_first, p) AND (re = '' OR match(context_first, re))
                                           AND (ib = '' OR infobase = ib),
                            {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule,
            if(rule = 0, context_first, {op_names:Array(String)}[rule]) AS operation
        FROM tj_call_splits
        WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)} AND notEmpty(dbpids) AND context_first IN {contexts:Array(String)}
    )
    WHERE operation IN {names:Array(String)}
) AS c ON s.pid = c.dbpid AND s.ts >= c.ts_start
WHERE s.ts <= c.ts
GROUP BY operation, wait_event_type, wait_event
ORDER BY operation, samples DESC, wait_event_type, wait_event
LIMIT {per:UInt32} BY operation
