// Visibility latency on the embedded default: `perfpipe run` tailing a TJ location into its own store, the same
// load as kafka-e2e's (bench/visibility.ts) so the two shapes can be read side by side (issue #14, Deliver 6:
// under 1 s at p99 at 10,000 events/s, through Kafka and embedded). The generated tree is copied in first, as in
// kafka-e2e, so the store and the alerter's indexes are not empty when the rate phase starts.
// Usage: npx tsx bench/run-visibility.ts [--size-mb 50] [--rate 10000] [--seconds 20]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, storedIn } from '../test/support/daemon.js';
import { isMain } from './bench-paths.js';
import type { BenchResult } from './figures.js';
import { copyAndWait, measureVisibility, runFromCommandLine, writeBulkTree } from './visibility.js';

export async function run(o: { sizeMb?: number; rate?: number; seconds?: number } = {}): Promise<BenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'perfpipe-run-vis-'));
  const tj = join(work, 'tj');
  mkdirSync(tj);
  const ref = join(work, 'ref');
  const truth = writeBulkTree(ref, o.sizeMb ?? 50);
  const config = join(work, 'run.yaml');
  // The agent's settings in kafka-e2e: files re-read every 100 ms besides change notifications.
  writeFileSync(config, ['pipeline:', '  poll_interval_ms: 100', ''].join('\n'));
  const data = join(work, 'data');
  const daemon = await startDaemon(['run', '--config', config, '--tj', tj, '--tz', 'UTC', '--data', data], 180_000);
  try {
    const { seconds: bulkS, stored } = await copyAndWait(truth, tj, data);
    const rate = o.rate ?? 10_000;
    const seconds = o.seconds ?? 20;
    const v = await measureVisibility({ tj, data, stored, rate, seconds });
    const final = await storedIn(data);
    return {
      bench: 'run-visibility',
      input: { bulk_events: truth.events, bulk_bytes: truth.bytes, rate_events_per_s: rate, rate_seconds: seconds },
      figures: [
        { name: 'perfpipe run, bulk tree: file write to last row visible', value: bulkS, unit: 's' },
        { name: `perfpipe run, visibility latency at ${rate} events/s, p50`, value: v.p50, unit: 'ms' },
        { name: `perfpipe run, visibility latency at ${rate} events/s, p99 (bar < 1000)`, value: v.p99, unit: 'ms' },
      ],
      ok: final.count === v.written && final.unique === v.written && v.p99 < 1000,
      notes: [`stored ${final.count} rows, ${final.unique} unique, of ${v.written} written`],
    };
  } finally {
    await daemon.stop('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await runFromCommandLine(run);
