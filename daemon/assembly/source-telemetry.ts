// Turns source and sink calls into pino lines and Prometheus counters, in one place (docs/style.md §3).
import type { Logger } from 'pino';
import type { SourceEvents } from '../../ingest/source/source-events.js';
import type { SinkEvents } from '../../ingest/sink/clickhouse-sink.js';
import type { Metrics } from '../../ingest/observe/metrics.js';
import { unframedMessage } from '../../ingest/source/pg/pg-file-readings.js';
import type { StoreDiskWatch } from './store-disk.js';

/** How often a condition that holds for a while (a full disk, too many files) is logged again. */
const REPEAT_LOG_MS = 30_000;

/** Lets a line through once per REPEAT_LOG_MS and says how many were held back since. */
function everyWhile(): (write: (held: number) => void) => void {
  let last = Number.NEGATIVE_INFINITY;
  let held = 0;
  return (write) => {
    const now = performance.now();
    if (now - last < REPEAT_LOG_MS) { held++; return; }
    write(held);
    last = now;
    held = 0;
  };
}

/** `disk`: the store's disk watch, when the store's disk is this process's (a full one is said there, once). */
export function sourceTelemetry(source: string, log: Logger, m: Metrics, disk?: StoreDiskWatch): SourceEvents {
  const l = { source };
  const checkpointLog = everyWhile();
  const openFilesLog = everyWhile();
  return {
    fileAdded: (path, fileKey, offset) => { m.inc('perfpipe_files_added_total', 'Files discovered', l); log.debug({ path, fileKey, offset }, 'file added'); },
    fileRotated: (oldPath, newPath, fileKey) => { m.inc('perfpipe_files_rotated_total', 'Files renamed while read', l); log.info({ oldPath, newPath, fileKey }, 'file renamed; reading on'); },
    fileTruncated: (path, fileKey, size, offset) => { m.inc('perfpipe_files_truncated_total', 'Files found shorter than the read position', l); log.warn({ path, fileKey, size, offset }, 'file truncated; it will be read anew'); },
    fileDeleted: (path, fileKey) => { m.inc('perfpipe_files_deleted_total', 'Files deleted while read', l); log.debug({ path, fileKey }, 'file deleted; reading to its end'); },
    fileFinished: (path, fileKey, offset) => { m.inc('perfpipe_files_finished_total', 'Files read to their end for good', l); log.debug({ path, fileKey, offset }, 'file finished'); },
    bytesRead: (_path, bytes) => m.inc('perfpipe_source_bytes_total', 'Bytes read from source files', l, bytes),
    segmentPublished: (_path, events, errors) => {
      disk?.ok();
      m.inc('perfpipe_events_total', 'Events parsed and acknowledged downstream', l, events);
      m.inc('perfpipe_ingest_errors_total', 'Ingest errors (bad input) found', l, errors);
      m.inc('perfpipe_segments_total', 'Segments acknowledged downstream', l);
    },
    publishFailed: (path, error, attempt) => {
      m.inc('perfpipe_publish_failures_total', 'Failed publishes (retried)', l);
      if (!disk?.failed(error)) log.warn({ path, attempt, err: error.message }, 'publish failed; retrying');
    },
    readFailed: (path, error) => { m.inc('perfpipe_read_failures_total', 'Failed file reads', l); log.warn({ path, err: error.message }, 'cannot read'); },
    replayed: (path, start, end) => { m.inc('perfpipe_replayed_segments_total', 'Segments replayed after a restart', l); log.info({ path, start, end }, 'replaying an unacknowledged range'); },
    recordDropped: (path, kind, offset, length) => {
      m.inc('perfpipe_records_dropped_total', 'Records over max_event_bytes or with a line over max_line_bytes, dropped as ingest errors', { ...l, kind });
      log.warn({ path, kind, offset, length }, kind === 'line_too_long' ? 'a line over max_line_bytes; its record was dropped' : 'a record over max_event_bytes was dropped');
    },
    checkpointFailed: (path, error) => {
      m.inc('perfpipe_checkpoint_failures_total', 'Checkpoint journal writes that failed (reading waits and retries)', l);
      if (disk?.failed(error)) return;
      checkpointLog((held) => log.error({ path, err: error.message, repeated: held }, 'cannot write checkpoints; reading waits until it can'));
    },
    prefixMismatch: (path, lines, prefix) => {
      m.inc('perfpipe_pg_prefix_mismatches_total', 'PostgreSQL logs whose first lines held no entry under the configured log_line_prefix', l);
      log.warn({ path, lines, prefix }, `none of the first ${lines} lines starts with the log_line_prefix '${prefix}': each is stored whole as an orphan line; give the server's own (psql: SHOW log_line_prefix) with --pg-prefix or the source's prefix`);
    },
    pgLogUnframed: (path, d) => {
      m.inc('perfpipe_pg_unframed_files_total', 'PostgreSQL logs not read: no destination or log_line_prefix fits their first lines', l);
      log.warn({ path, lines: d.lines, prefixed: d.prefixed, unframed: d.unframed }, unframedMessage(path, d));
    },
    pgPrefixDisagrees: (path, given, d, givenFramed) => {
      m.inc('perfpipe_pg_prefix_disagreements_total', 'PostgreSQL logs whose first lines show another log_line_prefix than the one given', l);
      log.warn({ path, given, found: d.prefix, givenFramed, foundFramed: d.framed, lines: d.lines },
        `the log_line_prefix given ('${given}') frames ${givenFramed} of the first ${d.lines} lines of ${path}; they look written with '${d.prefix}' (${d.framed} lines). The given one is used; check it (psql: SHOW log_line_prefix), or leave it out to have it found`);
    },
    openFilesLimited: (open, waiting) => {
      m.inc('perfpipe_open_files_limited_total', 'Scans that left files unopened because max_open_files was reached', l);
      m.set('perfpipe_files_waiting', 'Files left unopened on the last scan limited by max_open_files', l, waiting);
      openFilesLog((held) => log.warn({ open, waiting, repeated: held }, 'max_open_files reached; files wait for the next scan'));
    },
  };
}

/**
 * An outage of the store is logged once when it begins and once when it ends: a sink retries every insert with
 * backoff while ClickHouse is down or restarting, and a line per attempt and table buried the one that matters
 * (issue 27: "logs the outage once"). The attempts in between go to debug; the counter counts them all. A full disk
 * under the store is its own condition, said once by `disk` (./store-disk.ts).
 */
export function sinkTelemetry(log: Logger, m: Metrics, disk?: StoreDiskWatch): SinkEvents {
  let outage: { since: number; failures: number } | null = null;
  return {
    inserted: (table, rows, ms) => {
      disk?.ok();
      m.inc('perfpipe_rows_inserted_total', 'Rows acknowledged by ClickHouse', { table }, rows);
      m.inc('perfpipe_insert_seconds_total', 'Time spent in inserts', { table }, ms / 1000);
      m.inc('perfpipe_inserts_total', 'Inserts acknowledged by ClickHouse', { table });
      if (outage) {
        // At the level of the line that began it: an operator who reads warnings sees the outage end too.
        log.warn({ down_s: Math.round((Date.now() - outage.since) / 100) / 10, failed_attempts: outage.failures }, 'ClickHouse takes inserts again');
        outage = null;
      }
    },
    insertFailed: (table, error, attempt, permanent) => {
      m.inc('perfpipe_insert_failures_total', 'Failed inserts', { table, permanent: String(permanent) });
      if (disk?.failed(error)) return;
      if (permanent) { log.error({ table, attempt, err: error.message }, 'ClickHouse rejected an insert; stored as an ingest error'); return; }
      if (outage) { outage.failures++; log.debug({ table, attempt, err: error.message }, 'insert failed; retrying'); return; }
      outage = { since: Date.now(), failures: 1 };
      log.warn({ table, err: error.message }, 'ClickHouse is not taking inserts; retrying until it does (logged again when it does)');
    },
  };
}
