-- PostgreSQL server log entries (stderr, csvlog, jsonlog): typed columns for what analysts query, the open set of
-- remaining figures (checkpoint, vacuum, connection, lock extras…) in `props`. (file_key, file_offset) identifies
-- an entry; inserts carry insert_deduplication_token = segment id (non_replicated_deduplication_window).
CREATE TABLE IF NOT EXISTS pg_log
(
    ts DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    kind LowCardinality(String),
    severity LowCardinality(String),
    sqlstate LowCardinality(String),
    pid UInt32,
    session_id String,
    line_num UInt64,
    user LowCardinality(String),
    database LowCardinality(String),
    application LowCardinality(String),
    client LowCardinality(String),
    backend_type LowCardinality(String),
    command_tag LowCardinality(String),
    vxid String,
    xid Nullable(UInt64),
    query_id String,
    message String CODEC(ZSTD(3)),
    detail String CODEC(ZSTD(3)),
    hint String CODEC(ZSTD(3)),
    context String CODEC(ZSTD(3)),
    statement String CODEC(ZSTD(3)),
    statement_phase LowCardinality(String),
    duration_ms Nullable(Float64),
    lock_phase LowCardinality(String),
    lock_mode LowCardinality(String),
    lock_object String,
    lock_object_kind LowCardinality(String),
    lock_relation_oid Nullable(UInt32),
    lock_relation_name LowCardinality(String),
    lock_wait_ms Nullable(Float64),
    lock_holder_pids Array(UInt32),
    lock_queue_pids Array(UInt32),
    temp_file_path String,
    temp_file_bytes Nullable(UInt64),
    lang LowCardinality(String),
    props Map(LowCardinality(String), String) CODEC(ZSTD(3)),
    host LowCardinality(String),
    file String CODEC(ZSTD(1)),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (kind, host, ts)
SETTINGS non_replicated_deduplication_window = 10000;
