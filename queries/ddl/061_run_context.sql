-- What a run remembers of its setting (issue #25 item 4, docs/runs.md): at `runs start` and `runs stop`, every
-- PostgreSQL setting with its source, the server version and extensions (scope 'postgresql'), and the facts of the
-- host that ran perfpipe (scope 'host:<name>'). One row per fact per snapshot; a snapshot's rows share observed_at.
-- `report run-compare` and `report runs` compare the snapshots of two runs; a change inside a run comes from the
-- server log's reload lines (docs/pg-format.md §8) and from the start and stop snapshots.
CREATE TABLE IF NOT EXISTS run_context
(
    observed_at DateTime64(3, 'UTC'),
    run String,
    origin LowCardinality(String),
    scope LowCardinality(String),
    name String,
    value String,
    source LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (run, origin, scope, name, observed_at);
