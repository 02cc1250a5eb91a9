-- Backends blocked behind others, as pg_activity sampled them: an episode is one statement of one backend (its
-- query_start) seen in samples with non-empty blocking_pids. `seconds` is samples × interval (an estimate; the
-- episode lasted at least last_seen − first_seen). The holder is the first pid blocking it at its first sample, with
-- its state and query at that sample. The 1C side joins TJ DB events by `dbpid` as pg-lock-waits.sql does: the
-- waiter's statement is its first TJ event ending after the wait began, the holder's its last TJ event before it.
SELECT
    toString(e.first_seen) AS first_seen, toString(e.last_seen) AS last_seen, e.samples AS samples, e.seconds AS seconds,
    e.host AS host, e.pid AS pid, e.wait_event_type AS wait_event_type, e.wait_event AS wait_event, e.database AS database,
    e.pg_user AS pg_user, e.application AS application, e.query AS query, e.holder_pids AS holder_pids,
    e.first_holder AS holder_pid, h.state AS holder_state, h.query AS holder_query, h.application AS holder_application,
    waiter.infobase AS waiter_infobase, waiter.user AS waiter_1c_user, waiter.connect_id AS waiter_connect_id,
    waiter.context_first AS waiter_context,
    holder.user AS holder_1c_user, holder.connect_id AS holder_connect_id, holder.context_first AS holder_context
FROM
(
    SELECT
        host, server, pid, min(ts) AS first_seen, max(ts) AS last_seen, count() AS samples,
        round(sum(interval_ms) / 1000, 3) AS seconds,
        argMax(wait_event_type, ts) AS wait_event_type, argMax(wait_event, ts) AS wait_event,
        any(database) AS database, any(user) AS pg_user, any(application) AS application, argMax(query, ts) AS query,
        arraySort(groupUniqArrayArray(blocking_pids)) AS holder_pids, argMin(blocking_pids, ts)[1] AS first_holder,
        toDateTime64(min(ts), 6) AS at
    FROM pg_activity
    WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)} AND notEmpty(blocking_pids)
    GROUP BY host, server, pid, query_start
) AS e
LEFT JOIN
(
    SELECT host, server, ts, pid, state, query, application FROM pg_activity
    WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}
) AS h ON h.host = e.host AND h.server = e.server AND h.ts = e.first_seen AND h.pid = e.first_holder
ASOF LEFT JOIN
tj_dbpid_events(from = {from:DateTime64(3)}, to = {to:DateTime64(3)}) AS waiter ON e.pid = waiter.dbpid AND e.at <= waiter.ts
ASOF LEFT JOIN
tj_dbpid_events(from = {from:DateTime64(3)}, to = {to:DateTime64(3)}) AS holder ON e.first_holder = holder.dbpid AND e.at >= holder.ts
ORDER BY e.seconds DESC, e.first_seen
LIMIT {limit:UInt32}
