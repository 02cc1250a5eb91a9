-- The time each family's rows of one ingest cover (rows that arrived since {since}): the clock check of
-- queries/reports/clock-check.ts. PostgreSQL lines without a time (orphans) are left out.
SELECT 'tj' AS family, toString(toUnixTimestamp64Milli(min(ts))) AS from_ms, toString(toUnixTimestamp64Milli(max(ts))) AS to_ms, count() AS n
FROM tj_events WHERE ingested_at >= {since:DateTime}
UNION ALL
SELECT 'pg', toString(toUnixTimestamp64Milli(min(ts))), toString(toUnixTimestamp64Milli(max(ts))), count()
FROM pg_log WHERE ingested_at >= {since:DateTime} AND ts > toDateTime64('2000-01-01 00:00:00', 3, 'UTC')
UNION ALL
SELECT 'atop', toString(toUnixTimestamp64Milli(min(ts))), toString(toUnixTimestamp64Milli(max(ts))), count()
FROM atop_system WHERE ingested_at >= {since:DateTime}
