// `perfpipe agent`: the host agent of the distributed shape. Tails the sources into Kafka (no ClickHouse),
// answers /health, /ready and /metrics (events, bytes, lag per file, publish latency) on its local port.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { startAgent, type Agent } from '../../daemon/distributed/agent.js';
import { startHttpServer } from '../../daemon/http/server.js';
import { LiveMetrics } from '../../ingest/observe/live-metrics.js';
import { configForRole } from '../flags/role-flags.js';
import { stopOnSignals } from './daemon.js';

const USAGE = 'perfpipe agent [--config FILE] [--tj DIR] [--pg-activity postgresql://USER@HOST:PORT/DB] [--tz ZONE] [--host NAME] [--data DIR] [--kafka HOST:PORT[,…]] [--listen HOST:PORT]';

export async function agentCommand(argv: string[], log: Logger): Promise<number> {
  const { config, help } = configForRole(argv, 'agent', USAGE);
  if (help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const stop = stopOnSignals();
  const metrics = new LiveMetrics();
  let agent: Agent | null = null;
  // The agent holds no store: /sql answers 503 with a random token nobody knows.
  const server = await startHttpServer({
    listen: config.listen, token: randomBytes(24).toString('hex'), metrics, client: () => null, ready: () => agent !== null,
  });
  try {
    agent = await startAgent(config, log, metrics, stop.signal);
  } catch (error) {
    await server.close();
    if (stop.signal.aborted) return 0;
    throw error;
  }
  log.info({ sources: config.sources.map((s) => s.location), brokers: agent.bus.config.brokers, http: server.url }, 'perfpipe agent is running');
  await stop.requested;
  log.info('stopping: flushing acknowledged checkpoints');
  await server.close();
  await agent.stop();
  log.info({ events: metrics.total('perfpipe_events_total') }, 'stopped');
  return 0;
}
