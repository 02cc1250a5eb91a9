// A full disk under the store is one condition, not a failure per retry (issue 30: 154 warnings in 11 minutes, each
// `Cannot reserve 9.08 MiB, not enough space`, none saying what was wrong). Inserts, publishes and checkpoint writes
// that fail for want of space report here: the first says once that the store's disk is full and perfpipe waits for
// space; the next write that succeeds says once that space is back. In between every retry is only counted
// (perfpipe_store_disk_full_retries_total), perfpipe_store_disk_full is 1, and `run`'s /ready answers 503.
import type { Logger } from 'pino';
import type { Metrics } from '../../ingest/observe/metrics.js';
import { isDiskFull } from '../../ingest/sink/insert-errors.js';

export const DISK_FULL_GAUGE = 'perfpipe_store_disk_full';

export interface StoreDiskWatch {
  /** A write failed: true when for want of space (then counted, and said if it is the first). */
  failed(error: unknown): boolean;
  /** A write succeeded: space is there (said once if it was not). */
  ok(): void;
  readonly full: boolean;
}

export function createStoreDiskWatch(where: string, log: Logger, m: Metrics): StoreDiskWatch {
  let full = false;
  const gauge = (v: number): void => m.set(DISK_FULL_GAUGE, 'Whether the store\'s disk is full (1) and writes wait for space', {}, v);
  gauge(0);
  return {
    failed(error) {
      if (!isDiskFull(error)) return false;
      m.inc('perfpipe_store_disk_full_retries_total', 'Writes retried because the store\'s disk was full');
      if (!full) {
        full = true;
        gauge(1);
        log.error({ store: where, err: (error as Error).message },
          `the store's disk at ${where} is full: perfpipe is waiting for space and retries every write until it fits (nothing is lost); free space on that disk or move --data`);
      }
      return true;
    },
    ok() {
      if (!full) return;
      full = false;
      gauge(0);
      log.warn({ store: where }, `the store's disk at ${where} has space again: writing goes on`);
    },
    get full() { return full; },
  };
}
