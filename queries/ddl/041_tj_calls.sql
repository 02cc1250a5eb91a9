-- Server calls (TJ CALL, docs/tj-format.md §4.2) per minute of their start, infobase and first context line, with the
-- count per 10 ms run-time bucket: what `report apdex` needs to give key operations defined by a context rule in the
-- config (ingest/apdex/config.ts) their APDEX for any T, without reading every CALL again (docs/apdex.md §3, §4).
-- Bucket b holds calls in ((b-1)·10 ms, b·10 ms], b = ceil(duration / 10 ms): with T in whole 10 ms (the config
-- insists, as SSL stores T), d ≤ T ⇔ b ≤ T/10 ms holds exactly, as in apdex_minute (010_apdex.sql). Rules match the
-- first context line, so rows are per distinct line per minute — far fewer than the calls of a load test.
-- The view fills the rollup from the calls inserted after it exists; the copy of earlier calls this file once made
-- went in issue #29, as in 040_tj_locks.sql.
CREATE TABLE IF NOT EXISTS tj_call_minute
(
    minute DateTime('UTC'),
    infobase LowCardinality(String),
    context LowCardinality(String),
    n SimpleAggregateFunction(sum, UInt64),
    duration_us_sum SimpleAggregateFunction(sum, UInt64),
    buckets_10ms AggregateFunction(sumMap, Array(UInt32), Array(UInt64))
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (infobase, context, minute);

CREATE MATERIALIZED VIEW IF NOT EXISTS tj_call_minute_mv TO tj_call_minute AS
SELECT
    toStartOfMinute(ts_start) AS minute,
    infobase,
    context_first AS context,
    toUInt64(count()) AS n,
    toUInt64(sum(duration_us)) AS duration_us_sum,
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)]) AS buckets_10ms
FROM tj_events
WHERE event = 'CALL' AND context_first != ''
GROUP BY minute, infobase, context;
