-- Managed-lock trouble per minute and infobase from the tj_lock_minute rollup (queries/ddl/040_tj_locks.sql):
-- waits counted once per request, their total and longest wait, timeouts and deadlocks. The window is applied to
-- whole minutes: a minute counts when it starts in [from, to) — pass from/to as Unix seconds.
SELECT
    minute, infobase,
    sum(wait_events) AS waits,
    round(sum(wait_event_us_sum) / 1000, 1) AS total_wait_ms,
    round(max(wait_us_max) / 1000, 1) AS max_wait_ms,
    sum(timeouts) AS timeouts,
    sum(deadlocks) AS deadlocks
FROM tj_lock_minute
WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
GROUP BY minute, infobase
ORDER BY minute, infobase
LIMIT {limit:UInt32}
