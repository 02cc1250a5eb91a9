// Assembles `run` and `ingest` (docs/architecture.md §6). The embedded default: sources → in-process bus → ClickHouse
// sink, checkpoints in the data directory. With `bus.type: kafka`, `run` is an agent and a sink in one
// process, joined through the Kafka topics (the same code as `perfpipe agent` and `perfpipe sink`).
import type { Logger } from 'pino';
import type { Config } from '../ingest/config/config.js';
import { ConfigError } from '../ingest/errors/errors.js';
import { createMemoryBus } from '../ingest/bus/memory-bus.js';
import type { Bus } from '../ingest/bus/bus.js';
import { openStore, type Store } from '../ingest/store/clickhouse.js';
import { prepareSchema } from '../ingest/store/schema.js';
import { createClickHouseSink } from '../ingest/sink/clickhouse-sink.js';
import { createAlerter, type Alerter } from '../ingest/alert/index.js';
import { EMBEDDED_SETTLE_BATCH, startLockResolver } from '../ingest/locks/lock-resolver.js';
import type { Source } from '../ingest/source/source.js';
import { FAMILIES } from '../ingest/families/registry.js';
import type { Families } from '../ingest/families/family-registry.js';
import { LiveMetrics } from '../ingest/observe/live-metrics.js';
import { sinkTelemetry } from './assembly/source-telemetry.js';
import { createSources } from './assembly/pipeline-sources.js';
import { createStoreDiskWatch } from './assembly/store-disk.js';
import { startAgent } from './distributed/agent.js';
import { startSink } from './distributed/sink.js';

export { checkpointDirFor } from './assembly/pipeline-sources.js';

export interface Pipeline {
  store: Store;
  /** The bus the sources publish into. */
  bus: Bus;
  sources: Source[];
  metrics: LiveMetrics;
  /** Backfill: resolves when every source read everything and it was stored, and every lock episode is worked out. */
  done(): Promise<void>;
  /** Works out every lock episode still missing something once more and settles it (docs/write-path.md §11). */
  settleLocks(): Promise<void>;
  /**
   * Sends every alert notice still waiting (group_wait) and stops alerting; resolves once the channels settled,
   * so the `alerts` table holds every alert of the data read so far (`perfpipe demo` reports them next).
   */
  stopAlerts(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `families`: the data families it reads and stores, default the built-in ones; a test adds one with
 * `FAMILIES.with(…)` (docs/adding-a-family.md §6), and parses its config with the same registry.
 */
export async function startPipeline(config: Config, mode: 'follow' | 'backfill', log: Logger, families: Families = FAMILIES): Promise<Pipeline> {
  if (config.bus.type === 'kafka') {
    // Backfill over Kafka would report "done" when the broker acked, not when ClickHouse stored.
    if (mode === 'backfill') throw new ConfigError('ingest runs on the in-process bus; with bus.type: kafka use `perfpipe run`, or `perfpipe agent` and `perfpipe sink`');
    return startOnKafka(config, log, families);
  }
  const metrics = new LiveMetrics();
  const store = await openStore({ data: config.data, ...(config.clickhouse ? { clickhouse: config.clickhouse } : {}) });
  const { applied, retained } = await prepareSchema(store, { cluster: config.clickhouse_cluster, retention: config.retention, tables: families.retentionTables });
  // Routine on every fresh data directory: kept out of a person's terminal (issue #15), there at debug level.
  if (applied.length > 0) log.debug({ applied, store: store.where }, 'schema migrations applied');
  if (retained.length > 0) log.debug({ retention: retained, store: store.where }, 'retention changed');
  // Inserts, publishes and checkpoints share the data directory's disk: a full one is said once (store-disk.ts).
  const disk = createStoreDiskWatch(store.where, log, metrics);
  const sink = createClickHouseSink({ store, layouts: families, events: sinkTelemetry(log, metrics, disk) });
  const bus = createMemoryBus({ max_in_flight: config.bus.max_in_flight });
  await bus.start();
  // Alerts are evaluated on the stream, before the insert, so a lock timeout leaves within seconds; a
  // backfill reads history and alerts on nothing.
  const alerter: Alerter | null = mode === 'follow'
    ? createAlerter(config.alerts, { metrics, log: (line) => log.warn(line), store: store.client })
    : null;
  await bus.consume((segment) => {
    alerter?.observe(segment);
    return sink.write(segment);
  });
  // Lock episodes are worked out as they arrive; a backfill settles them once everything is stored.
  const locks = startLockResolver({
    client: store.client, mode, warn: (message, error) => log.warn(error ? { err: error.message } : {}, message),
    // The embedded engine takes a batch's parameters in process, not in a URL (lock-resolver.ts).
    ...(store.kind === 'embedded' ? { settleBatch: EMBEDDED_SETTLE_BATCH } : {}),
  });
  const sources = await createSources(config, mode, log, metrics, (segment) => bus.publish(segment), { families, disk });
  let stopped: Promise<void> | null = null;
  const pipeline: Pipeline = {
    store, bus, sources, metrics,
    async done() {
      await Promise.all(sources.map((s) => s.done()));
      await locks.settleAll();
    },
    settleLocks: () => locks.settleAll(),
    async stopAlerts() {
      await alerter?.stop();
    },
    stop() {
      stopped ??= (async () => {
        for (const s of sources) await s.stop();
        await bus.stop();
        await alerter?.stop();
        await locks.stop();
        await store.close();
      })();
      return stopped;
    },
  };
  for (const s of sources) await s.start();
  return pipeline;
}

/** `run` on a Kafka bus: the sink starts first so that the agent's first segments find a consumer group. */
async function startOnKafka(config: Config, log: Logger, families: Families): Promise<Pipeline> {
  const metrics = new LiveMetrics();
  const sink = await startSink(config, log.child({ role: 'sink' }), metrics, undefined, families);
  let agent;
  try {
    agent = await startAgent(config, log.child({ role: 'agent' }), metrics, undefined, families);
  } catch (error) {
    await sink.stop();
    throw error;
  }
  const started = agent;
  let stopped: Promise<void> | null = null;
  return {
    store: sink.service.store, bus: started.bus, sources: started.sources, metrics,
    done: () => Promise.all(started.sources.map((s) => s.done())).then(() => undefined),
    settleLocks: () => sink.service.locks.settleAll(),
    stopAlerts: () => sink.stopAlerts(),
    stop() {
      stopped ??= (async () => {
        await started.stop();
        await sink.stop();
      })();
      return stopped;
    },
  };
}
