// `perfpipe run`: the long-running daemon of the embedded default. Tails the sources, stores what
// they hold, answers /health, /ready, /metrics and /sql on its local port; SIGTERM/SIGINT stop it
// cleanly with checkpoints saved.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { startPipeline, type Pipeline } from '../../daemon/pipeline.js';
import { startHttpServer } from '../../daemon/http/server.js';
import { serveStore } from '../../daemon/clickhouse-http/for-store.js';
import { readDaemonFile, removeDaemonFile, writeDaemonFile } from '../../queries/daemon-file.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { configFromFlags } from '../flags/config-from-flags.js';
import { explainSourcesWithNothingToRead } from '../../daemon/assembly/nothing-to-read.js';
import { DISK_FULL_GAUGE } from '../../daemon/assembly/store-disk.js';

const USAGE = 'perfpipe run [--config FILE] [--tj DIR] [--pg DIR [--pg-prefix P] [--pg-format F]] [--apdex DIR] [--atop PATH] [--atop-raw DIR] [--atop-spawn SECONDS] [--pg-activity postgresql://USER@HOST:PORT/DB] [--tz ZONE] [--host NAME] [--data DIR | --clickhouse URL] [--listen HOST:PORT] [--serve-listen HOST:PORT] [--alert-webhook URL] [--alertmanager URL]';

export async function runCommand(argv: string[], log: Logger): Promise<number> {
  const { config, help } = configFromFlags(argv, USAGE);
  if (help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  if (!config.clickhouse) {
    const other = readDaemonFile(config.data);
    if (other) throw new ConfigError(`another perfpipe run (pid ${other.pid}) already uses the data directory ${config.data}`);
  }
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+$/.test(config.listen)) {
    log.warn({ listen: config.listen }, 'listening beyond loopback: /sql and /metrics require the PERFPIPE_HTTP_TOKEN bearer token');
  }
  const token = randomBytes(24).toString('hex');
  let pipeline: Pipeline | null = null;
  const server = await startHttpServer({
    listen: config.listen, token, metrics: { render: () => pipeline?.metrics.render() ?? '' } as Pipeline['metrics'],
    // Not ready while the store's disk is full (daemon/assembly/store-disk.ts): writes wait for space.
    client: () => pipeline?.store.client ?? null, ready: () => pipeline !== null && pipeline.metrics.value(DISK_FULL_GAUGE) !== 1,
  });
  // Announce the daemon before opening the store: a `perfpipe sql` started meanwhile waits for this
  // daemon (503 until ready) instead of taking the data directory's lock from under it.
  if (!config.clickhouse) writeDaemonFile(config.data, { pid: process.pid, url: server.url, token });
  let clickhouse = null;
  try {
    pipeline = await startPipeline(config, 'follow', log);
    clickhouse = await serveStore(pipeline.store, config.serve, config.data);
  } catch (error) {
    removeDaemonFile(config.data);
    await server.close();
    await pipeline?.stop();
    throw error;
  }
  log.info({ sources: config.sources.map((s) => s.location), store: pipeline.store.where, http: server.url, clickhouse: clickhouse?.url }, 'perfpipe is running');
  // The daemon waits for files to appear, but says now why a source reads nothing yet (a name pattern that
  // misses the log file is the usual reason, issue #15).
  for (const reason of await explainSourcesWithNothingToRead(config.sources)) log.warn(`nothing to read yet: ${reason}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log.info('stopping: saving checkpoints');
  removeDaemonFile(config.data);
  await clickhouse?.close();
  await server.close();
  await pipeline.stop();
  log.info({ events: pipeline.metrics.total('perfpipe_events_total') }, 'stopped');
  return 0;
}
