-- Managed-lock trouble per minute, infobase, lock space and context (docs/tj-format.md §5), fed from tj_events on every
-- insert, so `report locks` sums minutes instead of scanning every TLOCK of a long window (issue #5 item 5).
-- Units: `waits`/`wait_us_*` count a TLOCK that waited once per lock space it names (a request on two spaces
-- counts in both, as tj-lock-waits.sql does); `wait_events`/`wait_event_us_sum` count it once, on its first space,
-- so totals per minute or per context are not inflated. A TTIMEOUT names no space (region ''): its wait is the
-- TLOCK row of the same request. A TDEADLOCK is filed under the space of the victim's own edge (§5.3).
-- The view fills the rollup from the events inserted after it exists. Until issue #29 this file also copied in the
-- events stored before it (a second copy of the view's query), for stores begun before the file (the project's first
-- day); every store that ran it has its rollup, so the copy went. A store that ran the old file runs this one once
-- more (ingest/store/migrations.ts records a checksum per file): both statements are IF NOT EXISTS, no-ops there.
CREATE TABLE IF NOT EXISTS tj_lock_minute
(
    minute DateTime('UTC'),
    infobase LowCardinality(String),
    region LowCardinality(String),
    context LowCardinality(String),
    waits SimpleAggregateFunction(sum, UInt64),
    wait_us_sum SimpleAggregateFunction(sum, UInt64),
    wait_us_max SimpleAggregateFunction(max, UInt64),
    wait_events SimpleAggregateFunction(sum, UInt64),
    wait_event_us_sum SimpleAggregateFunction(sum, UInt64),
    timeouts SimpleAggregateFunction(sum, UInt64),
    deadlocks SimpleAggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (infobase, minute, region, context);

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_lock_minute_mv TO tj_lock_minute AS
SELECT
    toStartOfMinute(ts) AS minute,
    infobase,
    space.1 AS region,
    context_first AS context,
    toUInt64(countIf(event = 'TLOCK')) AS waits,
    toUInt64(sumIf(duration_us, event = 'TLOCK')) AS wait_us_sum,
    toUInt64(maxIf(duration_us, event = 'TLOCK')) AS wait_us_max,
    toUInt64(countIf(event = 'TLOCK' AND space.2 = 1)) AS wait_events,
    toUInt64(sumIf(duration_us, event = 'TLOCK' AND space.2 = 1)) AS wait_event_us_sum,
    toUInt64(countIf(event = 'TTIMEOUT')) AS timeouts,
    toUInt64(countIf(event = 'TDEADLOCK')) AS deadlocks
FROM
(
    SELECT
        ts, infobase, event, duration_us, context_first,
        arrayJoin(arrayZip(spaces, arrayEnumerate(spaces))) AS space,
        multiIf(
            event = 'TLOCK' AND notEmpty(regions), CAST(regions AS Array(String)),
            event = 'TDEADLOCK', [arrayFirst(e -> toUInt64(e[1]) = connect_id,
                                             extractAllGroupsVertical(deadlock_intersections, '(?:^|,)\\s*(\\d+)\\s+(\\d+)\\s+([^\\s,]+)'))[3]],
            ['']) AS spaces
    FROM tj_events
    WHERE (event = 'TLOCK' AND notEmpty(wait_connections)) OR event IN ('TTIMEOUT', 'TDEADLOCK')
)
GROUP BY minute, infobase, region, context;
