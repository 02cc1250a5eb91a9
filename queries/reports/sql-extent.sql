-- The first and last minute with DB statements in a window (Unix s; 0 when none): where the HTML page of `report sql`
-- starts and ends its time frame when the reader gave no window. From the minute rollup (queries/ddl/060_tj_sql.sql).
SELECT toUnixTimestamp(min(minute)) AS first_minute, toUnixTimestamp(max(minute)) AS last_minute
FROM tj_sql_minute
WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
