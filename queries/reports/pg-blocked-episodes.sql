-- Backends blocked behind others, as pg_activity sampled them (docs/tj-format.md §5.5): an episode is one statement
-- of one backend (its query_start) seen in samples with non-empty blocking_pids, summed from the per-minute rollup
-- over the window's minutes. `seconds` is samples × interval (an estimate; the episode lasted at least last_seen −
-- first_seen). The holder — the first pid blocking it at its first sample, its state and query at that sample — and
-- the 1C sides of waiter and holder by dbpid are what the lock resolver decided once per episode (pg_blocked_sides):
-- the waiter's statement is its first TJ event ending after the wait began, the holder's its last TJ event before it.
SELECT
    toString(e.first_seen) AS first_seen, toString(e.last_seen) AS last_seen, e.samples AS samples, e.seconds AS seconds,
    e.host AS host, e.pid AS pid, e.wait_event_type AS wait_event_type, e.wait_event AS wait_event, e.database AS database,
    e.pg_user AS pg_user, e.application AS application, e.query AS query, e.holder_pids AS holder_pids,
    if(s.status = '', e.first_holder, s.holder_pid) AS holder_pid, s.holder_state AS holder_state, s.holder_query AS holder_query,
    s.holder_application AS holder_application,
    s.waiter_infobase AS waiter_infobase, s.waiter_user AS waiter_1c_user, s.waiter_connect_id AS waiter_connect_id,
    s.waiter_context AS waiter_context,
    s.holder_user AS holder_1c_user, s.holder_connect_id AS holder_connect_id, s.holder_context AS holder_context,
    if(s.status = '', 'pending', s.status) AS status
FROM
(
    SELECT
        host, server, pid, query_start, min(first_seen) AS first_seen, max(last_seen) AS last_seen, sum(samples) AS samples,
        round(sum(interval_ms) / 1000, 3) AS seconds,
        argMaxMerge(wait_event_type) AS wait_event_type, argMaxMerge(wait_event) AS wait_event,
        any(database) AS database, any(user) AS pg_user, any(application) AS application, argMaxMerge(query) AS query,
        arraySort(groupUniqArrayArray(holder_pids)) AS holder_pids, argMinMerge(first_blocking)[1] AS first_holder
    FROM pg_blocked_minute
    WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
    GROUP BY host, server, pid, query_start
) AS e
LEFT JOIN (SELECT * FROM pg_blocked_sides FINAL) AS s
    ON s.host = e.host AND s.server = e.server AND s.pid = e.pid AND s.query_start = e.query_start
ORDER BY e.seconds DESC, e.first_seen
LIMIT {limit:UInt32}
