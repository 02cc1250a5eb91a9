-- Backends blocked behind others, as pg_activity sampled them (docs/tj-format.md §5.5): an episode is one statement
-- of one backend (host, server, pid, query_start) seen with non-empty blocking_pids. pg_blocked_minute sums its
-- samples per minute as they are stored, so `report pg-waits` reads minutes instead of every sample of a window;
-- pg_blocked_sides holds what the lock resolver (ingest/locks/) decides once per episode: the first holder's state
-- and query at the episode's first sample, and the 1C sides of waiter and holder by dbpid. query_start NULL is
-- stored as the epoch (a key column cannot be NULL).
CREATE TABLE IF NOT EXISTS pg_blocked_minute
(
    host LowCardinality(String),
    server LowCardinality(String),
    pid UInt32,
    query_start DateTime64(3, 'UTC'),
    minute DateTime('UTC'),
    first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
    samples SimpleAggregateFunction(sum, UInt64),
    interval_ms SimpleAggregateFunction(sum, UInt64),
    wait_event_type AggregateFunction(argMax, LowCardinality(String), DateTime64(3, 'UTC')),
    wait_event AggregateFunction(argMax, LowCardinality(String), DateTime64(3, 'UTC')),
    database SimpleAggregateFunction(any, LowCardinality(String)),
    user SimpleAggregateFunction(any, LowCardinality(String)),
    application SimpleAggregateFunction(any, LowCardinality(String)),
    query AggregateFunction(argMax, String, DateTime64(3, 'UTC')),
    holder_pids SimpleAggregateFunction(groupUniqArrayArray, Array(UInt32)),
    first_blocking AggregateFunction(argMin, Array(UInt32), DateTime64(3, 'UTC')),
    ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now()
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (minute, host, server, pid, query_start)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS pg_blocked_minute_mv TO pg_blocked_minute AS
SELECT
    host, server, pid, ifNull(query_start, toDateTime64(0, 3, 'UTC')) AS query_start, toStartOfMinute(ts) AS minute,
    min(ts) AS first_seen, max(ts) AS last_seen, toUInt64(count()) AS samples, toUInt64(sum(interval_ms)) AS interval_ms,
    argMaxState(wait_event_type, ts) AS wait_event_type, argMaxState(wait_event, ts) AS wait_event, any(database) AS database,
    any(user) AS user, any(application) AS application, argMaxState(query, ts) AS query,
    groupUniqArrayArray(blocking_pids) AS holder_pids, argMinState(blocking_pids, ts) AS first_blocking
FROM pg_activity
WHERE notEmpty(blocking_pids)
GROUP BY host, server, pid, query_start, minute;

CREATE TABLE IF NOT EXISTS pg_blocked_sides
(
    host LowCardinality(String),
    server LowCardinality(String),
    pid UInt32,
    query_start DateTime64(3, 'UTC'),
    -- pending | partial | settled | complete (docs/tj-format.md §5.5).
    status LowCardinality(String),
    first_seen DateTime64(3, 'UTC'),
    holder_pid UInt32,
    holder_state LowCardinality(String),
    holder_query String,
    holder_application LowCardinality(String),
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
ORDER BY (host, server, pid, query_start)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;

-- A blocked sample names its episode for the resolver (a version-0 row; the resolver's rows have higher versions).
CREATE MATERIALIZED VIEW IF NOT EXISTS pg_blocked_sides_mv TO pg_blocked_sides AS
SELECT host, server, pid, ifNull(query_start, toDateTime64(0, 3, 'UTC')) AS query_start, 'pending' AS status, min(ts) AS first_seen, 0 AS version
FROM pg_activity
WHERE notEmpty(blocking_pids)
GROUP BY host, server, pid, query_start;
