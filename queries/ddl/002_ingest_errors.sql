-- Input no parser could turn into an event: where it is, why, and a bounded excerpt (docs/architecture.md §3).
CREATE TABLE IF NOT EXISTS ingest_errors
(
    detected_at DateTime64(3, 'UTC') DEFAULT now64(3),
    host LowCardinality(String),
    source LowCardinality(String),
    file String,
    file_key String,
    offset UInt64,
    length UInt64,
    kind LowCardinality(String),
    reason String,
    excerpt String,
    can_continue Bool
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(detected_at)
ORDER BY (source, host, file_key, offset)
SETTINGS non_replicated_deduplication_window = 10000;
