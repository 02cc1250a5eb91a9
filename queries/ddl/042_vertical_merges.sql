-- Wide tables merge column by column. A horizontal merge opens a read buffer per column per source part and a
-- write buffer per column at once: on tj_events (45 columns, a Map among them) one merge of a backfill's small
-- parts held up to 275 MB (system.merges.memory_usage, 200 MB TJ ingest), peak RSS of `perfpipe ingest` 842 MB.
-- Vertical merges hold one column at a time: 692 MB, same ingest rate. ClickHouse uses the vertical algorithm
-- only from these thresholds up (default 131072 rows, 11 columns), which a backfill's first merges never reach.
ALTER TABLE tj_events MODIFY SETTING vertical_merge_algorithm_min_rows_to_activate = 1, vertical_merge_algorithm_min_columns_to_activate = 1;

ALTER TABLE pg_log MODIFY SETTING vertical_merge_algorithm_min_rows_to_activate = 1, vertical_merge_algorithm_min_columns_to_activate = 1;
