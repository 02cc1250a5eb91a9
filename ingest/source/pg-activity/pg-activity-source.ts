// The `pg_activity` source: every interval_ms, one read-only round trip to PostgreSQL (sample-query.ts) becomes one
// segment of family `pg_activity` whose id is (host, server, sample time), so the sink stores a sample once however
// often the bus delivers it. Nothing is replayed: a sample not acknowledged when perfpipe stops is gone, as the
// moment it saw is.
//
// Samples run one after another on one connection. Ticks are fixed (start + n × interval); a sample or a publish
// that outlasts its tick makes the missed ticks be skipped (counted), never queued, so a slow server is asked once
// at a time. A failure closes the session and waits with backoff (500 ms doubling to reconnect_max_ms) before
// connecting again; each distinct problem is reported once, the recovery once.
import type { Family, Segment } from '../../bus/bus.js';
import { segmentId } from '../../bus/bus.js';
import { buildRows, type RowBuilder } from '../../rows/row-builder.js';
import { ConfigError, type SourceError } from '../../errors/errors.js';
import type { PgActivitySample } from '../../../schemas/pg-activity-sample.js';
import { runSource, type Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import type { SourceEvents } from '../source-events.js';
import { fnv1a64Hex } from '../fingerprint.js';
import { publishUntilAcked } from '../publish-until-acked.js';
import { sleep } from '../../retry/sleep.js';
import { backoffMs } from '../../retry/backoff.js';
import type { PgActivitySourceConfig } from './config.js';
import { openSession, type PgSession } from './session.js';
import { classifyFailure, serverName } from './connection-errors.js';
import type { PgActivityEvents } from '../source-events.js';

export interface PgActivitySourceOptions {
  config: PgActivitySourceConfig;
  host: string;
  /** The family its segments carry, and a builder of its rows (its descriptor's). */
  family: Family;
  createRows(): RowBuilder;
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  activity: PgActivityEvents;
  mode: 'follow' | 'backfill';
}

const FIRST_BACKOFF_MS = 500;

export function createPgActivitySource(o: PgActivitySourceOptions): Source {
  if (o.mode === 'backfill') {
    throw new ConfigError('a pg_activity source samples a live server: run it with `perfpipe run` or `perfpipe agent`, not `ingest`');
  }
  const c = o.config;
  const server = serverName(c.connection);
  const fileKey = `pg_activity-${fnv1a64Hex(Buffer.from(`${o.host}|${server}`))}`;
  const abort = new AbortController();
  let loop: Promise<void> | null = null;

  function segmentOf(sample: PgActivitySample): Segment {
    const at = Math.round(sample.sampled_at_ms);
    return {
      id: segmentId(o.host, fileKey, at, at + 1), family: o.family, host: o.host, source: 'pg_activity',
      file: server, file_key: fileKey, start: at, end: at + 1, ...buildRows(o.createRows, [sample]), errors: [],
    };
  }

  async function run(): Promise<void> {
    let session: PgSession | null = null;
    let failures = 0;
    let problem: string | null = null;
    let everConnected = false;
    let tick = performance.now();
    const fail = async (error: SourceError): Promise<void> => {
      const backoff = backoffMs(++failures, FIRST_BACKOFF_MS, c.reconnect_max_ms);
      if (error.message !== problem) o.activity.failed(server, error, backoff);
      problem = error.message;
      await session?.close();
      session = null;
      await sleep(backoff, abort.signal);
    };
    while (!abort.signal.aborted) {
      if (session === null) {
        try {
          session = await openSession({ connection: c.connection, statementTimeoutMs: c.statement_timeout_ms });
        } catch (error) {
          await fail(classifyFailure(error, server).error);
          continue;
        }
        o.activity.connected(server, { version: session.traits.version, waitSampling: session.traits.waitSampling, resumed: everConnected || problem !== null });
        if (session.waitSamplingProblem !== null) o.activity.notice(server, session.waitSamplingProblem);
        everConnected = true;
        tick = performance.now();
      }
      const wait = tick - performance.now();
      if (wait > 0) await sleep(wait, abort.signal);
      if (abort.signal.aborted) break;
      const t0 = performance.now();
      try {
        const r = await session.sample();
        const ms = performance.now() - t0;
        problem = null;
        failures = 0;
        const sample: PgActivitySample = {
          host: o.host, server, sampled_at_ms: r.nowMs, interval_ms: c.interval_ms, duration_ms: ms,
          backends: r.backends, wait_period_ms: session.waitPeriodMs, wait_samples: r.waitSamples,
        };
        o.activity.sampled(server, ms, r.backends.length, r.waitSamples.length);
        if (!(await publishUntilAcked(o.publish, segmentOf(sample), o.events, abort.signal, 0))) break;
      } catch (error) {
        const failure = classifyFailure(error, server);
        // A timed-out sample leaves a usable session; anything else may have lost it.
        if (failure.kind === 'timeout' && !session.broken) {
          if (failure.error.message !== problem) o.activity.failed(server, failure.error, 0);
          problem = failure.error.message;
        } else {
          await fail(failure.error);
          continue;
        }
      }
      tick += c.interval_ms;
      const now = performance.now();
      if (tick <= now) {
        const missed = Math.floor((now - tick) / c.interval_ms) + 1;
        o.activity.skipped(server, missed);
        tick += missed * c.interval_ms;
      }
    }
    await (session as PgSession | null)?.close();
  }

  // A live source never finishes on its own: done once stopped.
  return runSource(abort, {
    begin() {
      loop = run().catch((error: unknown) => o.activity.failed(server, classifyFailure(error, server).error, 0));
      return null;
    },
    async end() {
      await loop;
    },
  });
}

/** A `pg_activity` entry's source: what pg-activity-family.ts loads once one is configured. */
export function createSource(s: PgActivitySourceConfig, ctx: SourceContext): Source {
  return createPgActivitySource({ ...ctx, config: s });
}
