-- Hour grain for `report why` (issue #25: each report within 2 s on a store of 100M TJ events). The minute rollups of
-- 062_tj_call_splits.sql hold a row per minute and first context line (tj_call_split_minute) and per minute, context and
-- statement shape (tj_call_sql_minute); over an 11-hour run that is most of what the whole-run report read, and the
-- statement rows grew with the calls (bench/report-why-scale.ts, bench/RESULTS.md). As tj_sql_hour does for
-- `report sql` (060_tj_sql.sql), the windows below read whole hours from these, the whole minutes of the partial hours
-- from the minute rollups and the partial minutes from the raw rows.
--   tj_call_split_hour  per hour, infobase and first context line: the split's sums as tj_call_split_minute, plus the
--                       longest call (max_us), from which why-slowest.sql takes a floor under an operation's slowest
--                       calls and so reads only the calls at or above it;
--   tj_call_sql_hour    per hour, infobase, first context line and statement shape, from tj_call_sql_minute.
CREATE TABLE IF NOT EXISTS tj_call_split_hour
(
    hour DateTime('UTC'),
    infobase LowCardinality(String),
    context LowCardinality(String),
    n SimpleAggregateFunction(sum, UInt64),
    duration_us_sum SimpleAggregateFunction(sum, UInt64),
    db_us_sum SimpleAggregateFunction(sum, UInt64),
    lock_wait_us_sum SimpleAggregateFunction(sum, UInt64),
    cpu_us_sum SimpleAggregateFunction(sum, UInt64),
    thread_wait_us_sum SimpleAggregateFunction(sum, UInt64),
    other_us_sum SimpleAggregateFunction(sum, UInt64),
    max_us SimpleAggregateFunction(max, UInt64),
    flagged SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt64))),
    buckets_10ms AggregateFunction(sumMap, Array(UInt32), Array(UInt64)),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (infobase, context, hour)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

-- From the call rows, not the minute rollup: the minute rollup keeps no maximum.
CREATE MATERIALIZED VIEW IF NOT EXISTS tj_call_split_hour_mv TO tj_call_split_hour AS
SELECT
    toStartOfHour(ts) AS hour, infobase, context_first AS context,
    toUInt64(count()) AS n, toUInt64(sum(duration_us)) AS duration_us_sum, toUInt64(sum(db_us)) AS db_us_sum,
    toUInt64(sum(lock_wait_us)) AS lock_wait_us_sum, toUInt64(sum(cpu_us)) AS cpu_us_sum,
    toUInt64(sum(thread_wait_us)) AS thread_wait_us_sum, toUInt64(sum(other_us)) AS other_us_sum,
    toUInt64(max(duration_us)) AS max_us,
    sumMap(arrayMap(f -> toString(f), flags), arrayMap(f -> toUInt64(1), flags)) AS flagged,
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)]) AS buckets_10ms
FROM tj_call_splits
GROUP BY hour, infobase, context;

CREATE TABLE IF NOT EXISTS tj_call_sql_hour
(
    hour DateTime('UTC'),
    infobase LowCardinality(String),
    context LowCardinality(String),
    sql_hash UInt64,
    n SimpleAggregateFunction(sum, UInt64),
    us SimpleAggregateFunction(sum, UInt64),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (infobase, context, hour, sql_hash)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_call_sql_hour_mv TO tj_call_sql_hour AS
SELECT toStartOfHour(minute) AS hour, infobase, context, sql_hash, toUInt64(sum(n)) AS n, toUInt64(sum(us)) AS us
FROM tj_call_sql_minute
GROUP BY hour, infobase, context, sql_hash;

-- Calls stored before this migration, once: only while the hour rollups are still empty.
INSERT INTO tj_call_split_hour (hour, infobase, context, n, duration_us_sum, db_us_sum, lock_wait_us_sum, cpu_us_sum, thread_wait_us_sum,
    other_us_sum, max_us, flagged, buckets_10ms)
SELECT
    toStartOfHour(ts) AS hour, infobase, context_first AS context,
    toUInt64(count()), toUInt64(sum(duration_us)), toUInt64(sum(db_us)), toUInt64(sum(lock_wait_us)), toUInt64(sum(cpu_us)),
    toUInt64(sum(thread_wait_us)), toUInt64(sum(other_us)), toUInt64(max(duration_us)),
    sumMap(arrayMap(f -> toString(f), flags), arrayMap(f -> toUInt64(1), flags)),
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)])
FROM tj_call_splits
WHERE (SELECT count() FROM tj_call_split_hour) = 0
GROUP BY hour, infobase, context;

INSERT INTO tj_call_sql_hour (hour, infobase, context, sql_hash, n, us)
SELECT toStartOfHour(minute) AS hour, infobase, context, sql_hash, toUInt64(sum(n)), toUInt64(sum(us))
FROM tj_call_sql_minute
WHERE (SELECT count() FROM tj_call_sql_hour) = 0
GROUP BY hour, infobase, context, sql_hash;

-- The windows of 062 again, now whole hours from the hour rollups, the whole minutes of the window's partial hours
-- from the minute rollups, and the partial minutes at either edge from the raw rows (as tj_sql_window, 060_tj_sql.sql).
CREATE OR REPLACE VIEW tj_call_split_window AS
SELECT infobase, context, n, duration_us_sum, db_us_sum, lock_wait_us_sum, cpu_us_sum, thread_wait_us_sum, other_us_sum,
    flagged, buckets_10ms
FROM tj_call_split_hour
WHERE hour >= toStartOfHour({from:DateTime64(6)} + INTERVAL 3599999999 MICROSECOND) AND hour + INTERVAL 1 HOUR <= {to:DateTime64(6)}
UNION ALL
SELECT infobase, context, n, duration_us_sum, db_us_sum, lock_wait_us_sum, cpu_us_sum, thread_wait_us_sum, other_us_sum,
    flagged, buckets_10ms
FROM tj_call_split_minute
WHERE minute >= toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) AND minute + INTERVAL 1 MINUTE <= {to:DateTime64(6)}
  AND NOT (toStartOfHour(minute) >= toStartOfHour({from:DateTime64(6)} + INTERVAL 3599999999 MICROSECOND)
           AND toStartOfHour(minute) + INTERVAL 1 HOUR <= {to:DateTime64(6)})
UNION ALL
SELECT infobase, context_first AS context, toUInt64(count()), toUInt64(sum(duration_us)), toUInt64(sum(db_us)),
    toUInt64(sum(lock_wait_us)), toUInt64(sum(cpu_us)), toUInt64(sum(thread_wait_us)), toUInt64(sum(other_us)),
    sumMap(arrayMap(f -> toString(f), flags), arrayMap(f -> toUInt64(1), flags)),
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)])
FROM tj_call_splits
WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
  AND (ts < toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) OR ts >= toStartOfMinute({to:DateTime64(6)}))
GROUP BY infobase, context;

CREATE OR REPLACE VIEW tj_call_sql_window AS
SELECT infobase, context, sql_hash, n, us
FROM tj_call_sql_hour
WHERE hour >= toStartOfHour({from:DateTime64(6)} + INTERVAL 3599999999 MICROSECOND) AND hour + INTERVAL 1 HOUR <= {to:DateTime64(6)}
UNION ALL
SELECT infobase, context, sql_hash, n, us
FROM tj_call_sql_minute
WHERE minute >= toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) AND minute + INTERVAL 1 MINUTE <= {to:DateTime64(6)}
  AND NOT (toStartOfHour(minute) >= toStartOfHour({from:DateTime64(6)} + INTERVAL 3599999999 MICROSECOND)
           AND toStartOfHour(minute) + INTERVAL 1 HOUR <= {to:DateTime64(6)})
UNION ALL
SELECT infobase, context_first AS context, h AS sql_hash, toUInt64(sum(c)), toUInt64(sum(u))
FROM tj_call_splits
ARRAY JOIN sql_hashes AS h, sql_counts AS c, sql_us AS u
WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
  AND (ts < toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) OR ts >= toStartOfMinute({to:DateTime64(6)}))
GROUP BY infobase, context, sql_hash;
