// The pg_activity sampler's calls as pino lines and Prometheus counters (docs/style.md §3). The sampler's own cost is
// here: perfpipe_pg_activity_sample_seconds_total over perfpipe_pg_activity_samples_total is the mean round trip.
import type { Logger } from 'pino';
import type { PgActivityEvents } from '../../ingest/source/source-events.js';
import type { Metrics } from '../../ingest/observe/metrics.js';

export function pgActivityTelemetry(log: Logger, m: Metrics): PgActivityEvents {
  return {
    connected: (server, info) => {
      m.inc('perfpipe_pg_activity_connects_total', 'Sessions the pg_activity sampler opened', { server });
      log.info({ server, version: info.version, pg_wait_sampling: info.waitSampling }, info.resumed ? 'pg_activity: connected again; sampling resumes' : 'pg_activity: sampling');
    },
    notice: (server, message) => log.warn({ server }, `pg_activity: ${message}`),
    failed: (server, error, retryMs) => {
      m.inc('perfpipe_pg_activity_failures_total', 'Connections or samples of pg_activity that failed', { server, permanent: String(error.permanent) });
      log[error.permanent ? 'error' : 'warn']({ server, retry_ms: retryMs }, error.message);
    },
    sampled: (server, ms, backends, waitSamples) => {
      m.inc('perfpipe_pg_activity_samples_total', 'pg_activity samples taken', { server });
      m.inc('perfpipe_pg_activity_sample_seconds_total', 'Round-trip time of pg_activity samples', { server }, ms / 1000);
      m.inc('perfpipe_pg_activity_backends_total', 'Backend rows of pg_activity samples', { server }, backends);
      if (waitSamples > 0) m.inc('perfpipe_pg_wait_samples_total', 'pg_wait_sampling history rows read', { server }, waitSamples);
    },
    skipped: (server, ticks) => {
      m.inc('perfpipe_pg_activity_skipped_total', 'Sample ticks skipped because the previous sample or its publish was still running', { server }, ticks);
      log.debug({ server, ticks }, 'pg_activity: a sample outlasted its interval; ticks skipped');
    },
  };
}
