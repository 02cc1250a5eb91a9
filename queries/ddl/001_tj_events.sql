-- Technological journal events: typed columns for what analysts query, every other property in `props`.
-- One row per event; (file_key, file_offset) identifies it. Inserts carry insert_deduplication_token =
-- segment id, so replays after a crash store nothing twice (non_replicated_deduplication_window).
CREATE TABLE IF NOT EXISTS tj_events
(
    ts DateTime64(6, 'UTC') CODEC(Delta(8), ZSTD(1)),
    ts_start DateTime64(6, 'UTC') CODEC(Delta(8), ZSTD(1)),
    duration_us UInt64 CODEC(T64, ZSTD(1)),
    event LowCardinality(String),
    depth UInt16,
    host LowCardinality(String),
    process LowCardinality(String),
    pid UInt32,
    infobase LowCardinality(String),
    connect_id UInt64,
    session_id UInt64,
    client_id UInt64,
    os_thread UInt64,
    user LowCardinality(String),
    app LowCardinality(String),
    computer LowCardinality(String),
    context String CODEC(ZSTD(3)),
    context_first LowCardinality(String),
    context_last LowCardinality(String),
    dbms LowCardinality(String),
    database LowCardinality(String),
    dbpid UInt32,
    trans Nullable(UInt32),
    func LowCardinality(String),
    sql String CODEC(ZSTD(3)),
    sql_hash UInt64,
    prm String CODEC(ZSTD(3)),
    rows Nullable(Int64),
    rows_affected Nullable(Int64),
    memory Nullable(Int64),
    memory_peak Nullable(Int64),
    cpu_time Nullable(Int64),
    in_bytes Nullable(Int64),
    out_bytes Nullable(Int64),
    call_wait Nullable(Int64),
    regions Array(LowCardinality(String)),
    locks String CODEC(ZSTD(3)),
    wait_connections Array(UInt64),
    deadlock_intersections String,
    exception LowCardinality(String),
    descr String CODEC(ZSTD(3)),
    props Map(LowCardinality(String), String) CODEC(ZSTD(3)),
    file String CODEC(ZSTD(1)),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (event, infobase, ts)
SETTINGS non_replicated_deduplication_window = 10000;
