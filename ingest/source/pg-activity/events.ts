// What the pg_activity sampler tells the outside world (docs/style.md §3): the CLI turns these calls into pino lines and
// Prometheus counters in one place (daemon/assembly/pg-activity-telemetry.ts).
import type { SourceError } from '../../errors/errors.js';

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

const noop = (): void => {};
export const silentPgActivityEvents: PgActivityEvents = { connected: noop, notice: noop, failed: noop, sampled: noop, skipped: noop };
