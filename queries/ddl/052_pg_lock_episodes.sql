-- A PostgreSQL lock wait (pg_lock_waits) with its 1C sides decided once (docs/tj-format.md §5.5): the waiter's
-- TJ event with its backend pid (dbpid) ending at or after the wait began, the holder's (its first holder) last one
-- at or before it. The view writes the wait as it is stored (status 'pending', version 0); the lock resolver
-- (ingest/locks/) writes it again with both sides and a higher version. Reports read the latest version (FINAL).
CREATE TABLE IF NOT EXISTS pg_lock_episodes
(
    ts_end DateTime64(3, 'UTC'),
    file_key String,
    file_offset UInt64,
    ts_start DateTime64(3, 'UTC'),
    pid UInt32,
    mode LowCardinality(String),
    object String,
    outcome LowCardinality(String),
    wait_ms Nullable(Float64),
    holder_pids Array(UInt32),
    queue_pids Array(UInt32),
    statement String,
    user LowCardinality(String),
    database LowCardinality(String),
    application LowCardinality(String),
    host LowCardinality(String),
    -- pending | partial | settled | complete (docs/tj-format.md §5.5).
    status LowCardinality(String),
    waiter_found UInt8,
    waiter_infobase LowCardinality(String),
    waiter_user LowCardinality(String),
    waiter_connect_id UInt64,
    waiter_context String,
    holder_found UInt8,
    holder_user LowCardinality(String),
    holder_connect_id UInt64,
    holder_context String,
    version UInt64,
    ingested_at DateTime DEFAULT now(),
    INDEX arrived ingested_at TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(ts_end)
ORDER BY (ts_end, file_key, file_offset)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS pg_lock_episodes_mv TO pg_lock_episodes AS
SELECT ts_end, file_key, file_offset, ts_start, pid, mode, object, outcome, wait_ms, holder_pids, queue_pids, statement, user, database,
    application, host, 'pending' AS status, 0 AS version
FROM pg_lock_waits;

-- Waits stored before this migration, once (only while the table is empty): the resolver completes them.
INSERT INTO pg_lock_episodes (ts_end, file_key, file_offset, ts_start, pid, mode, object, outcome, wait_ms, holder_pids, queue_pids, statement,
    user, database, application, host, status, version)
SELECT ts_end, file_key, file_offset, ts_start, pid, mode, object, outcome, wait_ms, holder_pids, queue_pids, statement, user, database,
    application, host, 'pending' AS status, 0 AS version
FROM pg_lock_waits
WHERE (SELECT count() FROM pg_lock_episodes) = 0;
