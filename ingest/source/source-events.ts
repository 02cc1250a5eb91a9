// What sources tell the outside world. Tailers do not log: they call this narrow object and the CLI
// turns the calls into pino lines and Prometheus counters in one place (docs/style.md §3).
import type { SourceError } from '../errors/errors.js';
import type { PgLogDetection } from '../../parsers/pg/log-detect.js';
import type { LimitKind } from './record-limits.js';

export interface SourceEvents {
  fileAdded(path: string, fileKey: string, offset: number): void;
  fileRotated(oldPath: string, newPath: string, fileKey: string): void;
  fileTruncated(path: string, fileKey: string, size: number, offset: number): void;
  fileDeleted(path: string, fileKey: string): void;
  fileFinished(path: string, fileKey: string, offset: number): void;
  bytesRead(path: string, bytes: number): void;
  segmentPublished(path: string, events: number, errors: number, bytes: number): void;
  publishFailed(path: string, error: Error, attempt: number): void;
  readFailed(path: string, error: Error): void;
  replayed(path: string, start: number, end: number): void;
  /** A record over `max_event_bytes` or a line over `max_line_bytes` was dropped (it is also an IngestError). */
  recordDropped(path: string, kind: LimitKind, offset: number, length: number): void;
  /** The checkpoint journal could not be written (a full disk): reading of the file waits and retries. */
  checkpointFailed(path: string, error: Error): void;
  /** The first `lines` lines of a PostgreSQL stderr log held no entry under the configured log_line_prefix. */
  prefixMismatch(path: string, lines: number, prefix: string): void;
  /** No destination or log_line_prefix fits a PostgreSQL log's first lines: the file is not read (once per file). */
  pgLogUnframed(path: string, detection: PgLogDetection): void;
  /** The given log_line_prefix frames `givenFramed` of a file's first lines, the one they show far more (once per file). */
  pgPrefixDisagrees(path: string, given: string, detection: PgLogDetection, givenFramed: number): void;
  /** `max_open_files` is reached: `waiting` files were left unopened on this scan. */
  openFilesLimited(open: number, waiting: number): void;
}

const noop = (): void => {};

export const silentSourceEvents: SourceEvents = {
  fileAdded: noop, fileRotated: noop, fileTruncated: noop, fileDeleted: noop, fileFinished: noop,
  bytesRead: noop, segmentPublished: noop, publishFailed: noop, readFailed: noop, replayed: noop,
  recordDropped: noop, checkpointFailed: noop, openFilesLimited: noop, prefixMismatch: noop, pgLogUnframed: noop, pgPrefixDisagrees: noop,
};

/**
 * What the pg_activity sampler says besides (it reads no files): turned into pino lines and Prometheus counters in
 * daemon/assembly/pg-activity-telemetry.ts. Here beside SourceEvents because every family's source is given both.
 */
export interface PgActivityEvents {
  /** A session is open; `resumed` after a failure. */
  connected(server: string, info: { version: number; waitSampling: boolean; resumed: boolean }): void;
  /** Something worth saying once about the server (pg_wait_sampling installed but not preloaded). */
  notice(server: string, message: string): void;
  /** Connecting or sampling failed; said once per distinct problem, not per retry. Next attempt in `retryMs`. */
  failed(server: string, error: SourceError, retryMs: number): void;
  /** A sample was taken: its round trip, ms, and the backends stored. */
  sampled(server: string, ms: number, backends: number, waitSamples: number): void;
  /** Ticks passed while a sample (or its publish) was still running: those samples were not taken. */
  skipped(server: string, ticks: number): void;
}
