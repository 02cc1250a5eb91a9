-- PostgreSQL's wait profile in a window, from pg_activity's per-minute rollup (queries/ddl/048_pg_activity.sql):
-- per wait type and event, the samples that saw a backend in it and the seconds they stand for (samples × the
-- sampling interval: an estimate, good to about one interval per episode). `CPU` is an active backend waiting on
-- nothing; `Lock`/`extend` is relation extension (concurrent inserts growing one table). A minute counts when the
-- window overlaps it.
SELECT wait_event_type, wait_event, toUInt64(sum(samples)) AS samples, round(sum(seconds), 3) AS seconds
FROM pg_wait_minute
WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
GROUP BY wait_event_type, wait_event
ORDER BY seconds DESC, samples DESC, wait_event_type, wait_event
LIMIT {limit:UInt32}
