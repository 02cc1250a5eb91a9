-- DB statements (TJ DBPOSTGRS, DBMSSQL, … : docs/tj-format.md §4.1) rolled up as they are inserted, for `report sql`
-- (issue #25 item 2), so it sums rollup rows instead of scanning every DB event of a run (most of a load test's
-- journal). Times are those of `ts`, the event's end, as the raw events are filtered. Three grains, each as small as
-- its reader needs (bench/report-scale.ts: a single minute × statement × context grain held nearly a row per
-- event until ~20M events, and its report took as long as the scan it replaced):
--   tj_sql_hour       per hour and statement shape: the statement list over the whole hours of a window;
--   tj_sql_minute     per minute and statement shape: the list over the whole minutes of the window's partial hours;
--                     both keep a p95 digest, merged for the statements listed only: an 11-hour run's statement
--                     takes 11 to 130 merges instead of 660 (the merge was most of the report's time);
--   tj_sql_context_minute  per minute, statement, infobase and first context line: who ran the statements listed.
-- The partial minutes at a window's edges come from tj_events (tj_sql_edges below), so every report over any window
-- equals a count() over tj_events on it.
CREATE TABLE IF NOT EXISTS tj_sql_hour
(
    hour DateTime('UTC'),
    sql_hash UInt64,
    n SimpleAggregateFunction(sum, UInt64),
    duration_us_sum SimpleAggregateFunction(sum, UInt64),
    rows_sum SimpleAggregateFunction(sum, Int64),
    rows_affected_sum SimpleAggregateFunction(sum, Int64),
    duration_q AggregateFunction(quantileTDigest(0.95), UInt64),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (hour, sql_hash)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS tj_sql_minute
(
    minute DateTime('UTC'),
    sql_hash UInt64,
    n SimpleAggregateFunction(sum, UInt64),
    duration_us_sum SimpleAggregateFunction(sum, UInt64),
    rows_sum SimpleAggregateFunction(sum, Int64),
    rows_affected_sum SimpleAggregateFunction(sum, Int64),
    duration_q AggregateFunction(quantileTDigest(0.95), UInt64),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (sql_hash, minute)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_sql_minute_mv TO tj_sql_minute AS
SELECT
    toStartOfMinute(ts) AS minute, sql_hash, toUInt64(count()) AS n, toUInt64(sum(duration_us)) AS duration_us_sum,
    toInt64(sum(ifNull(rows, 0))) AS rows_sum, toInt64(sum(ifNull(rows_affected, 0))) AS rows_affected_sum,
    quantileTDigestState(0.95)(duration_us) AS duration_q
FROM tj_events
WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0
GROUP BY minute, sql_hash;

-- Hours from the minutes as they are inserted (a view on the rollup, not on the raw events: a block of minutes is far
-- smaller than its events); a replayed block is dropped here too (deduplicate_blocks_in_dependent_materialized_views).
CREATE MATERIALIZED VIEW IF NOT EXISTS tj_sql_hour_mv TO tj_sql_hour AS
SELECT
    toStartOfHour(minute) AS hour, sql_hash, sum(n) AS n, sum(duration_us_sum) AS duration_us_sum, sum(rows_sum) AS rows_sum,
    sum(rows_affected_sum) AS rows_affected_sum, quantileTDigestMergeState(0.95)(duration_q) AS duration_q
FROM tj_sql_minute
GROUP BY hour, sql_hash;

CREATE TABLE IF NOT EXISTS tj_sql_context_minute
(
    minute DateTime('UTC'),
    sql_hash UInt64,
    infobase LowCardinality(String),
    context LowCardinality(String),
    n SimpleAggregateFunction(sum, UInt64),
    duration_us_sum SimpleAggregateFunction(sum, UInt64),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (sql_hash, minute, infobase, context)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_sql_context_minute_mv TO tj_sql_context_minute AS
SELECT toStartOfMinute(ts) AS minute, sql_hash, infobase, context_first AS context, toUInt64(count()) AS n, toUInt64(sum(duration_us)) AS duration_us_sum
FROM tj_events
WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0
GROUP BY minute, sql_hash, infobase, context;

-- One text per statement shape, to print beside its hash: every insert adds the shapes it saw, merges keep one.
CREATE TABLE IF NOT EXISTS tj_sql_text
(
    sql_hash UInt64,
    dbms LowCardinality(String),
    sql String CODEC(ZSTD(3)),
    ingested_at DateTime DEFAULT now()
)
ENGINE = ReplacingMergeTree
ORDER BY sql_hash
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_sql_text_mv TO tj_sql_text AS
SELECT sql_hash, any(dbms) AS dbms, any(sql) AS sql
FROM tj_events
WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0
GROUP BY sql_hash;

-- Statements stored before this migration, once: only while the rollups are still empty (tj_sql_hour fills from
-- the minutes through its view).
INSERT INTO tj_sql_minute (minute, sql_hash, n, duration_us_sum, rows_sum, rows_affected_sum, duration_q)
SELECT toStartOfMinute(ts) AS minute, sql_hash, toUInt64(count()), toUInt64(sum(duration_us)), toInt64(sum(ifNull(rows, 0))),
    toInt64(sum(ifNull(rows_affected, 0))), quantileTDigestState(0.95)(duration_us)
FROM tj_events
WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0 AND (SELECT count() FROM tj_sql_minute) = 0
GROUP BY minute, sql_hash;

INSERT INTO tj_sql_context_minute (minute, sql_hash, infobase, context, n, duration_us_sum)
SELECT toStartOfMinute(ts) AS minute, sql_hash, infobase, context_first, toUInt64(count()), toUInt64(sum(duration_us))
FROM tj_events
WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0 AND (SELECT count() FROM tj_sql_context_minute) = 0
GROUP BY minute, sql_hash, infobase, context_first;

INSERT INTO tj_sql_text (sql_hash, dbms, sql)
SELECT sql_hash, any(dbms), any(sql)
FROM tj_events
WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0 AND (SELECT count() FROM tj_sql_text) = 0
GROUP BY sql_hash;

-- The DB events of a window's partial minutes (before its first whole minute, from its last minute's start on), as
-- rollup rows: at most two minutes of raw events. The windows below add them to the whole minutes or hours.
CREATE VIEW IF NOT EXISTS tj_sql_edges AS
SELECT
    sql_hash, infobase, context_first AS context, toUInt64(count()) AS n, toUInt64(sum(duration_us)) AS duration_us_sum,
    toInt64(sum(ifNull(rows, 0))) AS rows_sum, toInt64(sum(ifNull(rows_affected, 0))) AS rows_affected_sum,
    quantileTDigestState(0.95)(duration_us) AS duration_q
FROM tj_events
WHERE event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0
  AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
  AND (ts < toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) OR ts >= toStartOfMinute({to:DateTime64(6)}))
GROUP BY sql_hash, infobase, context;

-- Per statement shape in a window [from, to): whole hours from tj_sql_hour, the whole minutes of partial hours from
-- tj_sql_minute, partial minutes from tj_sql_edges.
CREATE VIEW IF NOT EXISTS tj_sql_window AS
SELECT sql_hash, n, duration_us_sum, rows_sum, rows_affected_sum, duration_q
FROM tj_sql_hour
WHERE hour >= toStartOfHour({from:DateTime64(6)} + INTERVAL 3599999999 MICROSECOND) AND hour + INTERVAL 1 HOUR <= {to:DateTime64(6)}
UNION ALL
SELECT sql_hash, n, duration_us_sum, rows_sum, rows_affected_sum, duration_q
FROM tj_sql_minute
WHERE minute >= toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) AND minute + INTERVAL 1 MINUTE <= {to:DateTime64(6)}
  AND NOT (toStartOfHour(minute) >= toStartOfHour({from:DateTime64(6)} + INTERVAL 3599999999 MICROSECOND)
           AND toStartOfHour(minute) + INTERVAL 1 HOUR <= {to:DateTime64(6)})
UNION ALL
SELECT sql_hash, n, duration_us_sum, rows_sum, rows_affected_sum, duration_q
FROM tj_sql_edges(from = {from:DateTime64(6)}, to = {to:DateTime64(6)});

-- Per statement shape, infobase and first context line in a window: who ran the listed statements.
CREATE VIEW IF NOT EXISTS tj_sql_context_window AS
SELECT sql_hash, infobase, context, n, duration_us_sum
FROM tj_sql_context_minute
WHERE minute >= toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) AND minute + INTERVAL 1 MINUTE <= {to:DateTime64(6)}
UNION ALL
SELECT sql_hash, infobase, context, n, duration_us_sum
FROM tj_sql_edges(from = {from:DateTime64(6)}, to = {to:DateTime64(6)});
