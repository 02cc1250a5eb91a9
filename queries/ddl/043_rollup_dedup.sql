-- Exactly once for the rollups. A replayed segment (a crash replay, a redelivered Kafka message) was dropped from
-- the raw tables by its insert_deduplication_token, but the materialized views still inserted their part of it
-- into their target tables: a MergeTree deduplicates only with a deduplication window, and these tables had none,
-- so every replay counted twice in tj_lock_minute, tj_call_minute, apdex_minute and atop_minute
-- (test/rollups-exactly-once.test.ts). With a window, deduplicate_blocks_in_dependent_materialized_views drops the
-- view's block of a replay as well (docs/write-path.md). Costs nothing measurable at insert (bench/engine-doors.ts).
ALTER TABLE tj_lock_minute MODIFY SETTING non_replicated_deduplication_window = 10000;

ALTER TABLE tj_call_minute MODIFY SETTING non_replicated_deduplication_window = 10000;

ALTER TABLE apdex_minute MODIFY SETTING non_replicated_deduplication_window = 10000;

ALTER TABLE atop_minute MODIFY SETTING non_replicated_deduplication_window = 10000;
