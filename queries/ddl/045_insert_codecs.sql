-- Codecs that cost little at insert. ZSTD(3) on the text columns of the big tables was a fifth of the engine's insert
-- CPU at small inserts (bench/engine-doors.ts: LZ4 0.048 vs 0.063 CPU s per 1000 tj_events rows at 2,343 rows per
-- insert) and took 1.67× less disk. The text columns now use the part's default codec: LZ4 when written, ZSTD(3)
-- once the part is a day old (`recompress_after_days`, a RECOMPRESS TTL counted from ingested_at, so a backfill of
-- old journals is not recompressed while it is inserted; ingest/store/retention.ts). LZ4 then RECOMPRESS ended 21%
-- smaller than the old codecs after the merge. `CODEC(Default)` is the same as no codec clause (ClickHouse's codec
-- reference) and, unlike `REMOVE CODEC`, can be applied again: a start after a crash runs this file again.
ALTER TABLE tj_events
    MODIFY COLUMN ts CODEC(Delta(8), LZ4),
    MODIFY COLUMN ts_start CODEC(Delta(8), LZ4),
    MODIFY COLUMN duration_us CODEC(T64, LZ4),
    MODIFY COLUMN context CODEC(Default),
    MODIFY COLUMN sql CODEC(Default),
    MODIFY COLUMN prm CODEC(Default),
    MODIFY COLUMN locks CODEC(Default),
    MODIFY COLUMN descr CODEC(Default),
    MODIFY COLUMN props CODEC(Default),
    MODIFY COLUMN file CODEC(Default),
    MODIFY COLUMN file_key CODEC(Default),
    MODIFY COLUMN file_offset CODEC(Delta(8), LZ4);

ALTER TABLE pg_log
    MODIFY COLUMN ts CODEC(Delta(8), LZ4),
    MODIFY COLUMN message CODEC(Default),
    MODIFY COLUMN detail CODEC(Default),
    MODIFY COLUMN hint CODEC(Default),
    MODIFY COLUMN context CODEC(Default),
    MODIFY COLUMN statement CODEC(Default),
    MODIFY COLUMN props CODEC(Default),
    MODIFY COLUMN file CODEC(Default),
    MODIFY COLUMN file_key CODEC(Default),
    MODIFY COLUMN file_offset CODEC(Delta(8), LZ4);

ALTER TABLE pg_lock_waits
    MODIFY COLUMN ts_start CODEC(Delta(8), LZ4),
    MODIFY COLUMN ts_end CODEC(Delta(8), LZ4),
    MODIFY COLUMN statement CODEC(Default),
    MODIFY COLUMN holder_statements CODEC(Default),
    MODIFY COLUMN file CODEC(Default),
    MODIFY COLUMN file_key CODEC(Default);
