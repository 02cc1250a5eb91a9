-- The contexts (first line of the victim's call context) that waited longest on managed locks, from the
-- tj_lock_minute rollup (queries/ddl/040_tj_locks.sql): waits counted once per request, total and longest wait,
-- timeouts and deadlocks. The window is applied to whole minutes, as in tj-lock-minutes.sql.
SELECT
    infobase, context,
    sum(wait_events) AS waits,
    round(sum(wait_event_us_sum) / 1000, 1) AS total_wait_ms,
    round(max(wait_us_max) / 1000, 1) AS max_wait_ms,
    sum(timeouts) AS timeouts,
    sum(deadlocks) AS deadlocks
FROM tj_lock_minute
WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
GROUP BY infobase, context
ORDER BY total_wait_ms DESC, timeouts + deadlocks DESC, infobase, context
LIMIT {limit:UInt32}
