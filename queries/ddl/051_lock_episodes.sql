-- One row per 1C managed-lock victim event — a TLOCK that waited (kind 'wait'), a TTIMEOUT ('timeout'), a TDEADLOCK
-- ('deadlock') — with its culprits decided once (docs/tj-format.md §5.5, docs/write-path.md §11). The view below
-- writes the victim's side as the event is stored (status 'pending', version 0); the lock resolver (ingest/locks/)
-- writes the row again with its culprits and a higher version, and again while something it expects is missing.
-- Reports read the latest version (FINAL). A culprit entry is one culprit connection of a wait or timeout (waiter =
-- the victim) or one deadlock edge (waiter, holder, space, mode, item as the edge names them).
CREATE TABLE IF NOT EXISTS tj_lock_episodes
(
    kind LowCardinality(String),
    ts DateTime64(6, 'UTC'),
    file_key String,
    file_offset UInt64,
    infobase LowCardinality(String),
    victim_connect_id UInt64,
    victim_user LowCardinality(String),
    victim_context String,
    -- A wait's TLOCK: its lock spaces and how long it waited.
    regions Array(LowCardinality(String)),
    wait_us UInt64,
    -- When the culprit is known to hold the lock (the wait's start; a TTIMEOUT's own TLOCK's start once paired,
    -- else the event), and what the victim asked for.
    ref_ts DateTime64(6, 'UTC'),
    requested_regions Array(String),
    requested_locks String,
    wait_connections Array(UInt64),
    deadlock_intersections String,
    -- pending | partial | settled | complete (docs/tj-format.md §5.5).
    status LowCardinality(String),
    culprits Array(Tuple(
        waiter UInt64, holder UInt64, space String, mode String, item String, found UInt8,
        user String, context String,
        tx_found UInt8, tx_start DateTime64(6, 'UTC'), tx_user String, tx_context String,
        tx_end_found UInt8, tx_end DateTime64(6, 'UTC'), tx_end_func String,
        lock_found UInt8, lock_ts DateTime64(6, 'UTC'), lock_region String, lock_mode String, lock_text String,
        lock_context String, lock_match String)),
    version UInt64,
    ingested_at DateTime DEFAULT now(),
    INDEX arrived ingested_at TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(ts)
ORDER BY (kind, ts, file_key, file_offset)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_lock_episodes_mv TO tj_lock_episodes AS
SELECT multiIf(event = 'TLOCK', 'wait', event = 'TTIMEOUT', 'timeout', 'deadlock') AS kind, ts, file_key, file_offset, infobase, connect_id AS victim_connect_id,
    user AS victim_user, context_first AS victim_context, if(event = 'TLOCK', regions, []) AS regions, if(event = 'TLOCK', duration_us, 0) AS wait_us,
    if(event = 'TLOCK', ts_start, ts) AS ref_ts, if(event = 'TLOCK', CAST(regions AS Array(String)), []) AS requested_regions, if(event = 'TLOCK', locks, '') AS requested_locks,
    wait_connections, if(event = 'TDEADLOCK', deadlock_intersections, '') AS deadlock_intersections, 'pending' AS status, 0 AS version
FROM tj_events
WHERE (event = 'TLOCK' AND notEmpty(wait_connections)) OR event IN ('TTIMEOUT', 'TDEADLOCK');

-- Lock events stored before this migration, once (only while the table is empty): the resolver completes them.
INSERT INTO tj_lock_episodes (kind, ts, file_key, file_offset, infobase, victim_connect_id, victim_user, victim_context, regions, wait_us,
    ref_ts, requested_regions, requested_locks, wait_connections, deadlock_intersections, status, version)
SELECT multiIf(event = 'TLOCK', 'wait', event = 'TTIMEOUT', 'timeout', 'deadlock') AS kind, ts, file_key, file_offset, infobase, connect_id AS victim_connect_id,
    user AS victim_user, context_first AS victim_context, if(event = 'TLOCK', regions, []) AS regions, if(event = 'TLOCK', duration_us, 0) AS wait_us,
    if(event = 'TLOCK', ts_start, ts) AS ref_ts, if(event = 'TLOCK', CAST(regions AS Array(String)), []) AS requested_regions, if(event = 'TLOCK', locks, '') AS requested_locks,
    wait_connections, if(event = 'TDEADLOCK', deadlock_intersections, '') AS deadlock_intersections, 'pending' AS status, 0 AS version
FROM tj_events
WHERE ((event = 'TLOCK' AND notEmpty(wait_connections)) OR event IN ('TTIMEOUT', 'TDEADLOCK')) AND (SELECT count() FROM tj_lock_episodes) = 0;
