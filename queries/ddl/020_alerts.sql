-- One row per notification of the lock alerter (ingest/alert/): firing, updated or resolved, with the labels
-- (identity), annotations (details), count and the latest example events, as the webhook got them. A history to
-- query ("which lock timeouts fired last week, in which database, naming whom"), not the alerter's state.
-- The table is insert-only: a retried insert after a lost answer may store a notification twice.
CREATE TABLE IF NOT EXISTS alerts
(
    sent_at DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    fingerprint String,
    alertname LowCardinality(String),
    severity LowCardinality(String),
    rule LowCardinality(String),
    status LowCardinality(String),
    sequence UInt32,
    count UInt64,
    starts_at DateTime64(3, 'UTC'),
    ends_at Nullable(DateTime64(3, 'UTC')),
    labels Map(LowCardinality(String), String),
    annotations Map(LowCardinality(String), String) CODEC(ZSTD(3)),
    examples Array(Map(LowCardinality(String), String)) CODEC(ZSTD(3)),
    inserted_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(sent_at)
ORDER BY (alertname, fingerprint, sent_at);
