// `perfpipe sink`: one member of the sink consumer group: Kafka → ClickHouse, offsets committed after the
// insert. Answers /health, /ready, /metrics and POST /sql (through its own store, as `run` does).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { startSink, type Sink } from '../../daemon/distributed/sink.js';
import { startHttpServer } from '../../daemon/http/server.js';
import { serveStore } from '../../daemon/clickhouse-http/for-store.js';
import { readDaemonFile, removeDaemonFile, writeDaemonFile } from '../../queries/daemon-file.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { LiveMetrics } from '../../ingest/observe/live-metrics.js';
import { configForRole } from '../flags/role-flags.js';
import { stopOnSignals } from './daemon.js';
import { DISK_FULL_GAUGE } from '../../daemon/assembly/store-disk.js';

const USAGE = 'perfpipe sink [--config FILE] [--kafka HOST:PORT[,…]] [--group ID] [--data DIR | --clickhouse URL] [--listen HOST:PORT] [--serve-listen HOST:PORT]';

export async function sinkCommand(argv: string[], log: Logger): Promise<number> {
  const { config, help } = configForRole(argv, 'sink', USAGE);
  if (help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  if (!config.clickhouse) {
    const other = readDaemonFile(config.data);
    if (other) throw new ConfigError(`another perfpipe process (pid ${other.pid}) already uses the data directory ${config.data}`);
  }
  const stop = stopOnSignals();
  const metrics = new LiveMetrics();
  const token = randomBytes(24).toString('hex');
  let sink: Sink | null = null;
  const server = await startHttpServer({
    listen: config.listen, token, metrics, client: () => sink?.service.store.client ?? null, ready: () => sink !== null && metrics.value(DISK_FULL_GAUGE) !== 1,
  });
  let clickhouse = null;
  try {
    sink = await startSink(config, log, metrics, stop.signal);
    clickhouse = await serveStore(sink.service.store, config.serve, config.data);
  } catch (error) {
    await server.close();
    await sink?.stop();
    if (stop.signal.aborted) return 0;
    throw error;
  }
  if (!config.clickhouse) writeDaemonFile(config.data, { pid: process.pid, url: server.url, token });
  log.info({ brokers: sink.bus.config.brokers, group: sink.bus.config.group_id, store: sink.service.store.where, http: server.url }, 'perfpipe sink is running');
  if (clickhouse) log.info({ clickhouse: clickhouse.url }, 'serving ClickHouse\'s HTTP interface');
  await stop.requested;
  log.info('stopping: leaving the group with the unacknowledged left uncommitted');
  removeDaemonFile(config.data);
  await clickhouse?.close();
  await server.close();
  await sink.stop();
  log.info({ events: metrics.total('perfpipe_sink_events_out_total') }, 'stopped');
  return 0;
}
