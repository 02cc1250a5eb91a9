-- The perfmon test family's table (test/families/perfmon/): one row per counter value of a sample. A product family's
-- DDL is the next number in queries/ddl/; this one is applied by the test that registers the family.
CREATE TABLE IF NOT EXISTS perfmon_samples
(
    ts DateTime64(3, 'UTC'),
    host LowCardinality(String),
    counter LowCardinality(String),
    value Nullable(Float64),
    file_key String,
    file_offset UInt64,
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, counter, ts)
SETTINGS non_replicated_deduplication_window = 10000, ttl_only_drop_parts = 1;
