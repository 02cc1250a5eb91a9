-- Named load-test runs: time windows that reports take by name (`--run NAME`) and compare. The latest
-- version of a name wins (start, then stop, write two versions).
CREATE TABLE IF NOT EXISTS runs
(
    name String,
    started_at DateTime64(3, 'UTC'),
    stopped_at Nullable(DateTime64(3, 'UTC')),
    updated_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY name;
