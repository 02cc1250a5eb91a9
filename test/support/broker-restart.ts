// Stopping and starting a test broker on the same port and data directory, so that what it acked survives:
// the "broker restarted mid-stream" case (test/support/kafka-broker.ts's stop removes the data).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../ingest/store/package-root.js';
import type { Broker } from './kafka-broker.js';

const run = promisify(execFile);
// From the package root, not from this file: compiled benches run it from dist/test/support/.
const SCRIPT = join(packageRoot(), 'scripts', 'kafka.sh');

async function kafkaSh(command: 'start' | 'stop', broker: Broker): Promise<void> {
  await run('bash', [SCRIPT, command], {
    env: { ...process.env, KAFKA_PORT: String(broker.port), KAFKA_DATA: broker.dataDir }, timeout: 180_000,
  });
}

/** SIGTERM (a clean broker shutdown), data kept. */
export const pauseBroker = (broker: Broker): Promise<void> => kafkaSh('stop', broker);

/** Starts the broker again on its old data: every acked message is still there. */
export const resumeBroker = (broker: Broker): Promise<void> => kafkaSh('start', broker);
