// `perfpipe serve --data DIR`: ClickHouse's HTTP interface over an embedded store that no other perfpipe process
// holds, for analysts' tools (DBeaver, Grafana, clickhouse-connect, curl); users and limits from the config's
// `serve:` section (docs/clickhouse-http.md). Its own port answers /health, /ready, /metrics and /sql, as `run` does.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { DEFAULT_DATA_DIR, openStore } from '../../ingest/store/clickhouse.js';
import { migrate } from '../../ingest/store/migrations.js';
import { type ConfigInput, loadConfigInput, parseConfig } from '../../ingest/config/config.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { LiveMetrics } from '../../ingest/observe/live-metrics.js';
import { startHttpServer } from '../../daemon/http/server.js';
import { serveStore } from '../../daemon/clickhouse-http/for-store.js';
import { readDaemonFile, removeDaemonFile, writeDaemonFile } from '../../queries/daemon-file.js';
import { parseFlags } from '../flags/args.js';
import { applyServeListen } from '../flags/config-from-flags.js';
import { stopOnSignals } from './daemon.js';

const USAGE = 'perfpipe serve [--data DIR] [--config FILE] [--serve-listen HOST:PORT] [--listen HOST:PORT]';

/** 9650-9652 are run's, the agent's and the sink's. */
const SERVE_DAEMON_LISTEN = '127.0.0.1:9653';

export async function serveCommand(argv: string[], log: Logger): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    data: { type: 'string' }, config: { type: 'string', short: 'c' }, 'serve-listen': { type: 'string' }, listen: { type: 'string' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  if (positionals.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(positionals[0])}\nusage: ${USAGE}`);
  const base: ConfigInput = values.config ? structuredClone(loadConfigInput(values.config)) : {};
  base.data = values.data ?? base.data ?? DEFAULT_DATA_DIR;
  base.listen = values.listen ?? SERVE_DAEMON_LISTEN;
  applyServeListen(base, values['serve-listen']);
  const config = parseConfig(base, values.config ?? 'flags');
  if (!config.serve) throw new ConfigError(`serve: no users to serve; give --config FILE with a serve: section listing them (docs/clickhouse-http.md)\nusage: ${USAGE}`);
  if (config.clickhouse) throw new ConfigError('serve: serves the embedded store in --data; a ClickHouse server answers its clients itself');
  const other = readDaemonFile(config.data);
  if (other) throw new ConfigError(`another perfpipe process (pid ${other.pid}) already uses the data directory ${config.data}`);
  const stop = stopOnSignals();
  const store = await openStore({ data: config.data });
  const token = randomBytes(24).toString('hex');
  try {
    await migrate(store);
    const clickhouse = await serveStore(store, config.serve, config.data);
    const daemon = await startHttpServer({ listen: config.listen, token, metrics: new LiveMetrics(), client: () => store.client, ready: () => true });
    writeDaemonFile(config.data, { pid: process.pid, url: daemon.url, token });
    log.info({ store: store.where, clickhouse: clickhouse?.url, http: daemon.url, users: config.serve.users.map((u) => u.name) }, 'perfpipe serve is running');
    await stop.requested;
    log.info('stopping');
    removeDaemonFile(config.data);
    await clickhouse?.close();
    await daemon.close();
  } finally {
    await store.close();
  }
  return 0;
}
