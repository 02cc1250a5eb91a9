-- Seconds of PostgreSQL waits per minute and wait type (pg_activity samples × interval, from the rollup), for the
-- HTML report's timeline; `CPU` is an active backend waiting on nothing.
SELECT toUnixTimestamp(minute) AS t, wait_event_type, round(sum(seconds), 3) AS seconds
FROM pg_wait_minute
WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
GROUP BY t, wait_event_type
ORDER BY t, wait_event_type
