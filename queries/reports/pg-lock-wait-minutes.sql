-- PostgreSQL lock waits per minute by how they ended, and their total wait, for the HTML report's timeline. Like
-- pg-lock-waits.sql a wait counts in the minute it ended. The server reports the wait time only for `acquired`;
-- for the others ts_end − ts_start stands in (ts_start is the logged "after N ms" moved back, so it is close).
-- {bucket_s} is the width of a point: 60, or a divisor of it for a short window (queries/report-html/chart-bucket.ts).
SELECT
    toUInt32(intDiv(toUnixTimestamp(ts_end), {bucket_s:UInt32}) * {bucket_s:UInt32}) AS t,
    count() AS waits,
    countIf(outcome = 'acquired') AS acquired,
    countIf(outcome = 'lock_timeout') AS lock_timeouts,
    countIf(outcome = 'deadlock') AS deadlocks,
    waits - acquired - lock_timeouts - deadlocks AS other,
    round(sum(ifNull(wait_ms, toFloat64(dateDiff('millisecond', ts_start, ts_end)))) / 1000, 3) AS wait_s
FROM pg_lock_waits
WHERE ts_end >= {from:DateTime64(3)} AND ts_end < {to:DateTime64(3)}
GROUP BY t
ORDER BY t
