// The central half of the pipeline as one handler: validate a segment, dead-letter what is invalid, insert
// the rest into ClickHouse, count it. Used by `perfpipe sink` and by `run` on a Kafka bus.
import type { Logger } from 'pino';
import type { Segment } from '../../ingest/bus/bus.js';
import { openStore, type Store } from '../../ingest/store/clickhouse.js';
import { prepareSchema } from '../../ingest/store/schema.js';
import type { RetentionConfig } from '../../ingest/store/retention.js';
import type { Metrics } from '../../ingest/observe/metrics.js';
import { sinkTelemetry } from './source-telemetry.js';
import { createStoreDiskWatch } from './store-disk.js';
import { createClickHouseSink } from '../../ingest/sink/clickhouse-sink.js';
import type { DeadLetters } from '../../ingest/sink/dead-letters.js';
import { validateSegment } from '../../ingest/sink/segment-validation.js';
import type { Families } from '../../ingest/families/family-registry.js';
import { sleep } from '../../ingest/retry/sleep.js';
import { backoffMs } from '../../ingest/retry/backoff.js';
import { startLockResolver, type LockResolver } from '../../ingest/locks/lock-resolver.js';

export interface SinkServiceOptions {
  data: string;
  clickhouse: string | null;
  /** The cluster `clickhouse` is a node of (docs/deploy.md §3), or null. */
  cluster: { name: string; replicated: boolean } | null;
  /** Days each table family keeps its rows (table TTLs, set once the schema is in place). */
  retention: RetentionConfig;
  /** The families whose segments it stores (ingest/families/registry.ts): their tables, retention and old events. */
  families: Families;
  log: Logger;
  metrics: Metrics;
  deadLetters?: DeadLetters;
  /** Aborting ends insert retries and the wait for migrations. */
  signal: AbortSignal;
  /** Sees every checked segment before its insert (the alerter: rules run on the stream, not on the store). */
  observe?: (segment: Segment) => void;
}

export interface SinkService {
  store: Store;
  /** Works out the lock episodes of what every sink stored (docs/write-path.md §11); stop it before the store closes. */
  locks: LockResolver;
  /** The bus handler: resolves once every row of the segment is in ClickHouse (acknowledge, then commit). */
  handle(segment: Segment): Promise<void>;
}

/**
 * Opens the store and applies migrations, retrying while ClickHouse is unreachable: a sink started before
 * its server must wait for it, not exit (the consumer joins the group only afterwards, so nothing is read).
 */
export async function openSinkService(o: SinkServiceOptions): Promise<SinkService> {
  const store = await openStore({ data: o.data, ...(o.clickhouse ? { clickhouse: o.clickhouse } : {}) });
  for (let attempt = 1; ; attempt++) {
    try {
      const { applied, retained } = await prepareSchema(store, { cluster: o.cluster, retention: o.retention, tables: o.families.retentionTables });
      if (applied.length > 0) o.log.info({ applied, store: store.where }, 'schema migrations applied');
      if (retained.length > 0) o.log.info({ retention: retained, store: store.where }, 'retention changed');
      break;
    } catch (error) {
      // Waiting cannot mend credentials: a wrong user or password stops the sink at once, with ClickHouse's words.
      const refused = ['192', '193', '194', '516'].includes(String((error as { code?: unknown })?.code));
      if (o.signal.aborted || refused) { await store.close(); throw error; }
      const delay = backoffMs(attempt, 500, 10_000);
      o.metrics.inc('perfpipe_store_unavailable_total', 'Failed attempts to reach ClickHouse at start-up');
      o.log.warn({ store: store.where, attempt, retry_in_ms: delay, err: (error as Error).message }, 'ClickHouse unavailable; waiting');
      await sleep(delay, o.signal);
    }
  }
  const m = o.metrics;
  const sink = createClickHouseSink({ store, layouts: o.families, events: sinkTelemetry(o.log, m, createStoreDiskWatch(store.where, o.log, m)), signal: o.signal });
  const locks = startLockResolver({ client: store.client, mode: 'follow', warn: (message, error) => o.log.warn(error ? { err: error.message } : {}, message) });
  return {
    store, locks,
    async handle(segment) {
      const t0 = performance.now();
      const l = { family: segment.family };
      m.inc('perfpipe_sink_segments_in_total', 'Segments handed to the sink (retries included)', l);
      m.inc('perfpipe_sink_events_in_total', 'Events handed to the sink (retries included)', l, segment.records);
      try {
        const { segment: valid, invalid } = validateSegment(segment, o.families);
        if (invalid.length > 0) {
          m.inc('perfpipe_invalid_events_total', 'Tables of rows and old-agent events that failed their check (stored as ingest errors)', l, invalid.length);
          if (o.deadLetters) {
            await o.deadLetters.send(segment, invalid);
            m.inc('perfpipe_dead_letters_total', 'Records sent to the dead-letter topic by the sink', l, invalid.length);
          }
          o.log.warn({ segment: segment.id, invalid: invalid.length, first: invalid[0]?.reason }, 'invalid events dead-lettered');
        }
        o.observe?.(valid);
        await sink.write(valid);
        m.inc('perfpipe_sink_events_out_total', 'Events acknowledged by ClickHouse', l, valid.records);
        m.inc('perfpipe_sink_segments_out_total', 'Segments acknowledged by ClickHouse', l);
        m.inc('perfpipe_sink_bytes_out_total', 'Source-file bytes covered by segments ClickHouse acknowledged', l, segment.end - segment.start);
        m.observe('perfpipe_sink_batch_seconds', 'Time from a segment handed over to its rows acknowledged', {}, (performance.now() - t0) / 1000);
      } catch (error) {
        m.inc('perfpipe_sink_failures_total', 'Segments the sink failed to store (the bus retries them)', l);
        throw error;
      }
    },
  };
}

