-- The facts the lock resolver (ingest/locks/) looks up to decide each lock episode once (docs/write-path.md §11,
-- docs/tj-format.md §5.5), written as the events are stored. Narrow copies of tj_events, ordered for point lookups:
-- one connection's transaction bounds, TLOCKs and last context are one contiguous range of tj_connection_events; one
-- PostgreSQL backend's 1C events are one range of tj_backend_events. The views' blocks of a replayed segment are
-- dropped with it (the deduplication window, docs/write-path.md §5).
CREATE TABLE IF NOT EXISTS tj_connection_events
(
    infobase LowCardinality(String),
    connect_id UInt64,
    ts DateTime64(6, 'UTC') CODEC(Delta(8), LZ4),
    event LowCardinality(String),
    -- BeginTransaction, CommitTransaction or RollbackTransaction of an SDBL event; '' for every other event.
    func LowCardinality(String),
    user LowCardinality(String),
    context_first LowCardinality(String),
    -- A TLOCK's lock spaces, Locks and `escalating` flag; empty for every other event.
    regions Array(LowCardinality(String)),
    locks String,
    escalating UInt8,
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (infobase, connect_id, ts)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_connection_events_mv TO tj_connection_events AS
SELECT infobase, connect_id, ts, event, if(event = 'SDBL' AND func IN ('BeginTransaction', 'CommitTransaction', 'RollbackTransaction'), func, '') AS func,
    user, context_first, if(event = 'TLOCK', regions, []) AS regions, if(event = 'TLOCK', locks, '') AS locks,
    toUInt8(event = 'TLOCK' AND props['escalating'] = 'true') AS escalating
FROM tj_events
WHERE connect_id != 0;

CREATE TABLE IF NOT EXISTS tj_backend_events
(
    dbpid UInt32,
    ts DateTime64(6, 'UTC') CODEC(Delta(8), LZ4),
    infobase LowCardinality(String),
    user LowCardinality(String),
    connect_id UInt64,
    context_first LowCardinality(String),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (dbpid, ts)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_backend_events_mv TO tj_backend_events AS
SELECT dbpid, ts, infobase, user, connect_id, context_first
FROM tj_events
WHERE dbpid != 0;

-- Events stored before this migration, once: only while a table is still empty, so running the file again adds
-- nothing twice.
INSERT INTO tj_connection_events (infobase, connect_id, ts, event, func, user, context_first, regions, locks, escalating)
SELECT infobase, connect_id, ts, event, if(event = 'SDBL' AND func IN ('BeginTransaction', 'CommitTransaction', 'RollbackTransaction'), func, '') AS func,
    user, context_first, if(event = 'TLOCK', regions, []) AS regions, if(event = 'TLOCK', locks, '') AS locks,
    toUInt8(event = 'TLOCK' AND props['escalating'] = 'true') AS escalating
FROM tj_events
WHERE connect_id != 0 AND (SELECT count() FROM tj_connection_events) = 0;

INSERT INTO tj_backend_events (dbpid, ts, infobase, user, connect_id, context_first)
SELECT dbpid, ts, infobase, user, connect_id, context_first
FROM tj_events
WHERE dbpid != 0 AND (SELECT count() FROM tj_backend_events) = 0;
