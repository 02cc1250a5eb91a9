-- Where each server call's time went (issue #25, `report why`): one row per TJ CALL, decided by the per-thread
-- accountant as the events arrive (parsers/tj/calls/thread-accounts.ts, docs/tj-format.md §4.3) and inserted in the
-- same segment as the CALL's tj_events row, with the same deduplication token: a replayed segment stores nothing
-- twice. Ordered by operation line and time, so a report on one operation reads one range.
CREATE TABLE IF NOT EXISTS tj_call_splits
(
    ts DateTime64(6, 'UTC') CODEC(Delta(8), ZSTD(1)),
    ts_start DateTime64(6, 'UTC') CODEC(Delta(8), ZSTD(1)),
    host LowCardinality(String),
    process LowCardinality(String),
    pid UInt32,
    infobase LowCardinality(String),
    connect_id UInt64,
    session_id UInt64,
    os_thread UInt64,
    user LowCardinality(String),
    context_first LowCardinality(String),
    duration_us UInt64 CODEC(T64, ZSTD(1)),
    db_us UInt64 CODEC(T64, ZSTD(1)),
    lock_wait_us UInt64 CODEC(T64, ZSTD(1)),
    cpu_us UInt64 CODEC(T64, ZSTD(1)),
    thread_wait_us UInt64 CODEC(T64, ZSTD(1)),
    other_us UInt64 CODEC(T64, ZSTD(1)),
    db_count UInt32,
    lock_wait_count UInt32,
    dbpids Array(UInt32),
    sql_hashes Array(UInt64),
    sql_counts Array(UInt32),
    sql_us Array(UInt64),
    flags Array(LowCardinality(String)),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (infobase, context_first, ts)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

-- Per minute of the call's end, infobase and first context line: the split's sums, the flagged calls, and the calls
-- per 10 ms bucket of duration for APDEX at any T in whole 10 ms (as tj_call_minute, 041_tj_calls.sql). The statements
-- inside the calls are rows of their own (tj_call_sql_minute below): merging per-row statement maps (sumMap states)
-- took seconds where a GROUP BY over plain rows takes a fraction (bench/report-why-scale.ts). `report why` sums these over a window's whole minutes and reads the raw
-- rows only for its partial minutes and its slowest calls (bench/report-scale.ts measures it at 100M events).
CREATE TABLE IF NOT EXISTS tj_call_split_minute
(
    minute DateTime('UTC'),
    infobase LowCardinality(String),
    context LowCardinality(String),
    n SimpleAggregateFunction(sum, UInt64),
    duration_us_sum SimpleAggregateFunction(sum, UInt64),
    db_us_sum SimpleAggregateFunction(sum, UInt64),
    lock_wait_us_sum SimpleAggregateFunction(sum, UInt64),
    cpu_us_sum SimpleAggregateFunction(sum, UInt64),
    thread_wait_us_sum SimpleAggregateFunction(sum, UInt64),
    other_us_sum SimpleAggregateFunction(sum, UInt64),
    flagged SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt64))),
    buckets_10ms AggregateFunction(sumMap, Array(UInt32), Array(UInt64)),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (infobase, context, minute)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_call_split_minute_mv TO tj_call_split_minute AS
SELECT
    toStartOfMinute(ts) AS minute, infobase, context_first AS context,
    toUInt64(count()) AS n, toUInt64(sum(duration_us)) AS duration_us_sum, toUInt64(sum(db_us)) AS db_us_sum,
    toUInt64(sum(lock_wait_us)) AS lock_wait_us_sum, toUInt64(sum(cpu_us)) AS cpu_us_sum,
    toUInt64(sum(thread_wait_us)) AS thread_wait_us_sum, toUInt64(sum(other_us)) AS other_us_sum,
    sumMap(arrayMap(f -> toString(f), flags), arrayMap(f -> toUInt64(1), flags)) AS flagged,
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)]) AS buckets_10ms
FROM tj_call_splits
GROUP BY minute, infobase, context;

-- Per infobase and first context line in a window [from, to): the rollup's whole minutes and the raw rows of the
-- partial minutes at either edge (at most two minutes of calls), as in tj_sql_window (060_tj_sql.sql).
CREATE VIEW IF NOT EXISTS tj_call_split_window AS
SELECT infobase, context, n, duration_us_sum, db_us_sum, lock_wait_us_sum, cpu_us_sum, thread_wait_us_sum, other_us_sum,
    flagged, buckets_10ms
FROM tj_call_split_minute
WHERE minute >= toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) AND minute + INTERVAL 1 MINUTE <= {to:DateTime64(6)}
UNION ALL
SELECT infobase, context_first AS context, toUInt64(count()), toUInt64(sum(duration_us)), toUInt64(sum(db_us)),
    toUInt64(sum(lock_wait_us)), toUInt64(sum(cpu_us)), toUInt64(sum(thread_wait_us)), toUInt64(sum(other_us)),
    sumMap(arrayMap(f -> toString(f), flags), arrayMap(f -> toUInt64(1), flags)),
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)])
FROM tj_call_splits
WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
  AND (ts < toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) OR ts >= toStartOfMinute({to:DateTime64(6)}))
GROUP BY infobase, context;

-- Per minute, infobase, first context line and statement shape: the executions and time of the statement inside the
-- calls (the shapes each call kept, tj_call_splits.sql_hashes), for `report why`'s top statements per operation.
CREATE TABLE IF NOT EXISTS tj_call_sql_minute
(
    minute DateTime('UTC'),
    infobase LowCardinality(String),
    context LowCardinality(String),
    sql_hash UInt64,
    n SimpleAggregateFunction(sum, UInt64),
    us SimpleAggregateFunction(sum, UInt64),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (infobase, context, minute, sql_hash)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_call_sql_minute_mv TO tj_call_sql_minute AS
SELECT toStartOfMinute(ts) AS minute, infobase, context_first AS context, h AS sql_hash, toUInt64(sum(c)) AS n, toUInt64(sum(u)) AS us
FROM tj_call_splits
ARRAY JOIN sql_hashes AS h, sql_counts AS c, sql_us AS u
GROUP BY minute, infobase, context, sql_hash;

-- Per infobase, first context line and statement shape in a window [from, to), as tj_call_split_window.
CREATE VIEW IF NOT EXISTS tj_call_sql_window AS
SELECT infobase, context, sql_hash, n, us
FROM tj_call_sql_minute
WHERE minute >= toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) AND minute + INTERVAL 1 MINUTE <= {to:DateTime64(6)}
UNION ALL
SELECT infobase, context_first AS context, h AS sql_hash, toUInt64(sum(c)), toUInt64(sum(u))
FROM tj_call_splits
ARRAY JOIN sql_hashes AS h, sql_counts AS c, sql_us AS u
WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
  AND (ts < toStartOfMinute({from:DateTime64(6)} + INTERVAL 59999999 MICROSECOND) OR ts >= toStartOfMinute({to:DateTime64(6)}))
GROUP BY infobase, context, sql_hash;
