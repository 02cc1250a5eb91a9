-- One row per PostgreSQL lock wait (log_lock_waits), from its first `still waiting` line to how it ended
-- (parsers/pg/lock-episodes.ts). The row is emitted with the entry that closed the wait, so its identity is that
-- entry's (file_key, file_offset); wait_ms is set only for `acquired` (the server's own total).
CREATE TABLE IF NOT EXISTS pg_lock_waits
(
    ts_start DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    ts_end DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    pid UInt32,
    mode LowCardinality(String),
    object String,
    object_kind LowCardinality(String),
    relation_oid Nullable(UInt32),
    database_oid Nullable(UInt32),
    outcome LowCardinality(String),
    wait_ms Nullable(Float64),
    holder_pids Array(UInt32),
    queue_pids Array(UInt32),
    statement String CODEC(ZSTD(3)),
    holder_statements Map(String, Array(String)) CODEC(ZSTD(3)),
    user LowCardinality(String),
    database LowCardinality(String),
    application LowCardinality(String),
    session_id String,
    host LowCardinality(String),
    file String CODEC(ZSTD(1)),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64,
    start_offset UInt64,
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts_end)
ORDER BY (outcome, host, ts_end)
SETTINGS non_replicated_deduplication_window = 10000;
