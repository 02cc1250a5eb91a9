-- Managed-lock trouble per minute and infobase from the tj_lock_minute rollup (queries/ddl/040_tj_locks.sql):
-- waits counted once per request, their total and longest wait, timeouts and deadlocks. The window is applied to
-- whole minutes: a minute counts when it starts in [from, to) — pass from/to as Unix seconds. {bucket_s} below 60
-- (the HTML chart of a short run, queries/report-html/chart-bucket.ts) gives buckets of that many seconds (a divisor
-- of 60) from the raw events of the same minutes, counted as tj_lock_minute_mv counts them: its wait_events are the
-- TLOCKs that waited, each once (on its first lock space), and every TTIMEOUT and TDEADLOCK falls in one space.
SELECT minute, infobase, waits, total_wait_ms, max_wait_ms, timeouts, deadlocks
FROM
(
    SELECT
        minute, infobase,
        sum(wait_events) AS waits,
        round(sum(wait_event_us_sum) / 1000, 1) AS total_wait_ms,
        round(max(wait_us_max) / 1000, 1) AS max_wait_ms,
        sum(timeouts) AS timeouts,
        sum(deadlocks) AS deadlocks
    FROM tj_lock_minute
    WHERE {bucket_s:UInt32} >= 60 AND minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
    GROUP BY minute, infobase
    UNION ALL
    SELECT
        toDateTime(intDiv(toUnixTimestamp(ts), {bucket_s:UInt32}) * {bucket_s:UInt32}, 'UTC') AS minute, infobase,
        toUInt64(countIf(event = 'TLOCK')) AS waits,
        round(sumIf(duration_us, event = 'TLOCK') / 1000, 1) AS total_wait_ms,
        round(maxIf(duration_us, event = 'TLOCK') / 1000, 1) AS max_wait_ms,
        toUInt64(countIf(event = 'TTIMEOUT')) AS timeouts,
        toUInt64(countIf(event = 'TDEADLOCK')) AS deadlocks
    FROM tj_events
    WHERE {bucket_s:UInt32} < 60 AND ((event = 'TLOCK' AND notEmpty(wait_connections)) OR event IN ('TTIMEOUT', 'TDEADLOCK'))
      AND toStartOfMinute(ts) >= toStartOfMinute({from:DateTime64(3)}) AND toStartOfMinute(ts) < {to:DateTime64(3)}
    GROUP BY minute, infobase
)
ORDER BY minute, infobase
LIMIT {limit:UInt32}
