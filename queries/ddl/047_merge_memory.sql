-- Merges of the big tables in small steps. A backfill's 8 MiB parts were merged many at a time, and those merges were
-- the largest part of `perfpipe ingest`'s peak RSS above the engine's own (200 MB TJ: 527 MiB with today's merges,
-- 470-497 MiB merging at most 4 parts at once with blocks of 2,048 rows, the same CPU within noise). Vertical merges
-- (042) already hold one column at a time; these bound how many parts and rows that column comes from.
ALTER TABLE tj_events MODIFY SETTING max_parts_to_merge_at_once = 4, merge_max_block_size = 2048;

ALTER TABLE pg_log MODIFY SETTING max_parts_to_merge_at_once = 4, merge_max_block_size = 2048;
