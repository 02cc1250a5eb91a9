-- Live PostgreSQL activity sampled by the `pg_activity` source (ingest/source/pg-activity/): one row per backend
-- that was not idle per sample, with the pids blocking it (pg_blocking_pids). A sample is one segment whose id is
-- (host, server, sample time), so a redelivered sample is dropped by its insert_deduplication_token.
CREATE TABLE IF NOT EXISTS pg_activity
(
    ts DateTime64(3, 'UTC') CODEC(Delta(8), LZ4),
    host LowCardinality(String),
    server LowCardinality(String),
    interval_ms UInt32,
    pid UInt32,
    database LowCardinality(String),
    user LowCardinality(String),
    application LowCardinality(String),
    client_addr LowCardinality(String),
    backend_type LowCardinality(String),
    state LowCardinality(String),
    wait_event_type LowCardinality(String),
    wait_event LowCardinality(String),
    xact_start Nullable(DateTime64(3, 'UTC')),
    query_start Nullable(DateTime64(3, 'UTC')),
    state_change Nullable(DateTime64(3, 'UTC')),
    backend_xid Nullable(UInt32),
    query_id String,
    query String,
    blocking_pids Array(UInt32),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, ts, pid)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

-- pg_wait_sampling's history (when the extension is installed): one row per history_period (10 ms by default)
-- observation of a backend, finer than pg_activity's samples.
CREATE TABLE IF NOT EXISTS pg_wait_samples
(
    ts DateTime64(6, 'UTC') CODEC(Delta(8), LZ4),
    host LowCardinality(String),
    server LowCardinality(String),
    period_ms UInt32,
    pid UInt32,
    wait_event_type LowCardinality(String),
    wait_event LowCardinality(String),
    query_id String,
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, ts, pid)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

-- Wait events per minute: samples, and seconds estimated as samples × the sampling interval, per database, wait type
-- and event. An active backend that waits on nothing is on CPU (wait_event_type 'CPU', as pg_wait_sampling and
-- ASH-style tools name it). A sample counts in the minute it was taken.
CREATE TABLE IF NOT EXISTS pg_wait_minute
(
    minute DateTime('UTC'),
    host LowCardinality(String),
    database LowCardinality(String),
    wait_event_type LowCardinality(String),
    wait_event LowCardinality(String),
    samples SimpleAggregateFunction(sum, UInt64),
    seconds SimpleAggregateFunction(sum, Float64),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (host, minute, database, wait_event_type, wait_event)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS pg_wait_minute_mv TO pg_wait_minute AS
SELECT
    toStartOfMinute(ts) AS minute,
    host,
    database,
    kind AS wait_event_type,
    wait_event,
    toUInt64(count()) AS samples,
    toFloat64(sum(interval_ms)) / 1000 AS seconds
FROM
(
    SELECT ts, host, database, if(wait_event_type = '' AND state = 'active', 'CPU', wait_event_type) AS kind, wait_event, interval_ms
    FROM pg_activity
)
GROUP BY minute, host, database, wait_event_type, wait_event;
