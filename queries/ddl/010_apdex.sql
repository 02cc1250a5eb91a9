-- Key-operation measurements from the SSL performance-evaluation export (docs/apdex.md §2.2), the key-operation
-- settings (T, priority, minimum level) and a per-minute rollup from which APDEX is recomputed for any T
-- (queries/reports/apdex.sql). (file_key, file_offset) identifies a measurement; inserts carry
-- insert_deduplication_token = segment id, so replays store nothing twice (non_replicated_deduplication_window).
CREATE TABLE IF NOT EXISTS apdex_measurements
(
    ts_start DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    duration_us UInt64 CODEC(T64, ZSTD(1)),
    operation LowCardinality(String),
    operation_name LowCardinality(String),
    operation_uid LowCardinality(String),
    target_s Nullable(Float64),
    priority Nullable(UInt32),
    min_level Nullable(Float64),
    long Nullable(Bool),
    comment String CODEC(ZSTD(3)),
    weight Float64,
    user LowCardinality(String),
    session_number Nullable(UInt64),
    saved_at Nullable(DateTime64(3, 'UTC')),
    failed Nullable(Bool),
    host LowCardinality(String),
    file String CODEC(ZSTD(1)),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts_start)
ORDER BY (operation, ts_start)
SETTINGS non_replicated_deduplication_window = 10000;

-- Settings that win over what the export says: one row per operation (technical name), the highest version
-- kept. target_s NULL = use the export's T. T is meant in SSL's precision (Number 15.2: whole 10 ms);
-- apdex.sql rounds it to 10 ms, the resolution of apdex_minute's buckets.
CREATE TABLE IF NOT EXISTS key_operations
(
    name String,
    description String,
    target_s Nullable(Float64),
    priority Nullable(UInt32),
    min_level Nullable(Float64),
    source LowCardinality(String),
    version UInt64,
    updated_at DateTime DEFAULT now()
)
ENGINE = ReplacingMergeTree(version)
ORDER BY name;

-- Per operation and minute: count, total and quantiles of run time, and the count per 10 ms run-time bucket
-- (bucket b holds runs in ((b-1)·10 ms, b·10 ms], i.e. b = ceil(duration / 10 ms)). Why buckets and not a
-- quantile sketch: S and A are counts at d ≤ T and d ≤ 4T, and a t-digest only approximates them; with T in
-- whole 10 ms (SSL stores T as Number 15.2, so 4T is too), d ≤ T ⇔ bucket ≤ T/10 ms holds exactly, so any T
-- set later gives exact S, A and F. Cost: at most one map entry per distinct 10 ms value per minute, which is
-- below the raw row count whenever runs repeat; a T finer than 10 ms (not expressible in SSL) is rounded.
-- The export's own T, priority and min level are kept as the latest value seen (argMax by start time).
CREATE TABLE IF NOT EXISTS apdex_minute
(
    minute DateTime('UTC'),
    operation LowCardinality(String),
    n SimpleAggregateFunction(sum, UInt64),
    failed SimpleAggregateFunction(sum, UInt64),
    duration_us_sum SimpleAggregateFunction(sum, UInt64),
    duration_us_max SimpleAggregateFunction(max, UInt64),
    duration_quantiles AggregateFunction(quantilesTDigest(0.5, 0.9, 0.95, 0.99), UInt64),
    buckets_10ms AggregateFunction(sumMap, Array(UInt32), Array(UInt64)),
    export_target_s AggregateFunction(argMaxIf, Float64, DateTime64(3, 'UTC'), UInt8),
    export_priority AggregateFunction(argMaxIf, UInt32, DateTime64(3, 'UTC'), UInt8),
    export_min_level AggregateFunction(argMaxIf, Float64, DateTime64(3, 'UTC'), UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (operation, minute);

CREATE MATERIALIZED VIEW IF NOT EXISTS apdex_minute_mv TO apdex_minute AS
SELECT
    toStartOfMinute(ts_start) AS minute,
    operation,
    toUInt64(count()) AS n,
    toUInt64(countIf(failed = true)) AS failed,
    toUInt64(sum(duration_us)) AS duration_us_sum,
    max(duration_us) AS duration_us_max,
    quantilesTDigestState(0.5, 0.9, 0.95, 0.99)(duration_us) AS duration_quantiles,
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)]) AS buckets_10ms,
    argMaxIfState(ifNull(target_s, 0), ts_start, toUInt8(isNotNull(target_s))) AS export_target_s,
    argMaxIfState(ifNull(priority, toUInt32(0)), ts_start, toUInt8(isNotNull(priority))) AS export_priority,
    argMaxIfState(ifNull(min_level, 0), ts_start, toUInt8(isNotNull(min_level))) AS export_min_level
FROM apdex_measurements
GROUP BY minute, operation;
