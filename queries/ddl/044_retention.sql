-- Retention: every table gets a TTL from the config's `retention` days at start-up (ingest/store/retention.ts).
-- Raw tables are partitioned by day and rollups by month; with ttl_only_drop_parts an expired part is dropped whole
-- (a file deletion) instead of rewritten without its old rows.
ALTER TABLE tj_events MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE pg_log MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE pg_lock_waits MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE atop_system MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE atop_cpu MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE atop_disks MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE atop_interfaces MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE atop_top_processes MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE apdex_measurements MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE tj_lock_minute MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE tj_call_minute MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE apdex_minute MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE atop_minute MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE alerts MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE ingest_errors MODIFY SETTING ttl_only_drop_parts = 1;
