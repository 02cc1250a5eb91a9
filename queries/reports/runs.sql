-- Every named run (queries/ddl/011_runs.sql) with its window, oldest first: the list `report runs` walks, running
-- apdex.sql and lock-counts.sql over each window. The latest version of a name wins (FINAL); a run still open ends
-- now. Times as Unix ms, so the caller binds them to the other reports as Unix seconds without a time-zone question.
SELECT
    name,
    toUnixTimestamp64Milli(started_at) AS from_ms,
    toUnixTimestamp64Milli(coalesce(stopped_at, now64(3))) AS to_ms,
    isNull(stopped_at) AS running
FROM runs FINAL
ORDER BY started_at, name
