// A real Kafka broker for tests, through scripts/kafka.sh: a fresh data dir per broker, removed on stop.
// Use from ava: `test.before(() => startBroker())`, `test.after.always(() => stopBroker())`.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Admin } from 'kafkajs';
import { packageRoot } from '../../ingest/store/package-root.js';
import { FAMILIES } from '../../ingest/families/registry.js';
import { topicNames } from '../../ingest/bus/kafka-topics.js';
import { stopAtExit } from './owned-children.js';

const run = promisify(execFile);
// From the package root, not from this file: compiled benches run it from dist/test/support/.
const SCRIPT = join(packageRoot(), 'scripts', 'kafka.sh');

export interface Broker {
  port: number;
  brokers: string[];
  dataDir: string;
  /** Milliseconds from `kafka.sh start` to ready (includes a fetch when the jar cache is cold). */
  startMs: number;
}

const started = new Map<number, Broker>();
/** What stops each started broker if this test process ends first (kafka.sh runs it detached). */
const forgetAtExit = new Map<number, () => void>();

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port whose successor (the controller port) is free too, starting near 19192 and spread by pid. */
export async function findBrokerPort(base = 19192): Promise<number> {
  for (let i = 0; i < 200; i += 1) {
    const port = base + ((process.pid + i * 7) % 400) * 2;
    if ((await portFree(port)) && (await portFree(port + 1))) return port;
  }
  throw new Error(`no free port pair found from ${base}`);
}

function env(port: number, dataDir: string): NodeJS.ProcessEnv {
  return { ...process.env, KAFKA_PORT: String(port), KAFKA_DATA: dataDir };
}

export async function startBroker(port?: number): Promise<Broker> {
  const chosen = port ?? (await findBrokerPort());
  const dataDir = await mkdtemp(join(tmpdir(), `perfpipe-kafka-${chosen}-`));
  const began = Date.now();
  try {
    await run('bash', [SCRIPT, 'start'], { env: env(chosen, dataDir), timeout: 180_000 });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    const detail = error as { stdout?: string; stderr?: string };
    throw new Error(`kafka.sh start failed on port ${chosen}:\n${detail.stdout ?? ''}${detail.stderr ?? ''}`);
  }
  const broker = { port: chosen, brokers: [`127.0.0.1:${chosen}`], dataDir, startMs: Date.now() - began };
  started.set(chosen, broker);
  forgetAtExit.set(chosen, stopAtExit(() => process.kill(Number(readFileSync(join(dataDir, 'kafka.pid'), 'utf8')), 'SIGKILL')));
  return broker;
}

/** Stops the brokers this process started (or only `port`'s) and removes their data dirs. */
export async function stopBroker(port?: number): Promise<void> {
  const brokers = port === undefined ? [...started.values()] : [started.get(port)].filter((b) => b !== undefined);
  for (const broker of brokers) {
    try {
      await run('bash', [SCRIPT, 'stop'], { env: env(broker.port, broker.dataDir), timeout: 60_000 });
    } finally {
      started.delete(broker.port);
      forgetAtExit.get(broker.port)?.();
      forgetAtExit.delete(broker.port);
      await rm(broker.dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * Whether consumer group `groupId` has committed every partition of the family topics under `topicPrefix` up to
 * its end. A group commits a message only after its handler resolved (for a sink: ClickHouse stored it), and a
 * rebalance restarts from the committed offsets: once caught up, nothing sent so far can be delivered again.
 */
export async function groupCaughtUp(admin: Admin, groupId: string, topicPrefix: string): Promise<boolean> {
  try {
    const topics = topicNames(topicPrefix, FAMILIES.names).families;
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics })) {
      const high = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
      for (const p of partitions) if (Math.max(0, Number(p.offset)) < (high.get(p.partition) ?? 0)) return false;
    }
    return true;
  } catch (error) {
    if ((error as { retriable?: boolean }).retriable) return false; // the coordinator moving or loading: ask again
    throw error;
  }
}
