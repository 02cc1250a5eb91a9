// End to end through the real broker: TJ files → `perfpipe agent` → Kafka → `perfpipe sink` → ClickHouse
// (embedded). Throughput: a generated tree copied into the watched folder at once, timed from the copy's first byte
// to the last row visible, beside its reference in the same run: `perfpipe ingest --tj` (one process, embedded
// store, from spawn to exit) over the same tree (issue #14's bar: the distributed shape at ≥ 0.5× of it).
// Latency: lines appended at a fixed rate in 100 ms ticks; a tick is visible once the stored count covers it
// (bench/visibility.ts; bench/run-visibility.ts measures the embedded `perfpipe run` the same way).
// Usage: npx tsx bench/kafka-e2e.ts [--size-mb 50] [--rate 10000] [--seconds 20]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker, stopBroker } from '../test/support/kafka-broker.js';
import { startDaemon, storedIn, type Daemon } from '../test/support/daemon.js';
import { isMain, repoRoot } from './bench-paths.js';
import type { BenchResult } from './figures.js';
import { copyAndWait, measureVisibility, runFromCommandLine, writeBulkTree } from './visibility.js';

export async function run(o: { sizeMb?: number; rate?: number; seconds?: number } = {}): Promise<BenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'perfpipe-e2e-'));
  const tj = join(work, 'tj');
  mkdirSync(tj);
  // The bulk input, written before anything is timed: a realistic tree (CALL, DBPOSTGRS with multi-line SQL, TLOCK…).
  const ref = join(work, 'ref');
  const truth = writeBulkTree(ref, o.sizeMb ?? 50);
  // The reference: the same tree through `perfpipe ingest` as a user runs it.
  const i0 = performance.now();
  const ingest = spawnSync(join(repoRoot(), 'bin', 'perfpipe.js'), ['ingest', '--tj', ref, '--tz', 'UTC', '--data', join(work, 'ingest-data')], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ingestS = (performance.now() - i0) / 1000;
  const ingested = Number(/^ingested (\d+) events/m.exec(ingest.stdout)?.[1] ?? -1);
  rmSync(join(work, 'ingest-data'), { recursive: true, force: true });
  const broker = await startBroker();
  const daemons: Daemon[] = [];
  try {
    const config = join(work, 'e2e.yaml');
    writeFileSync(config, ['bus:', '  type: kafka', `  brokers: ["${broker.brokers[0]}"]`, 'pipeline:', '  poll_interval_ms: 100', ''].join('\n'));
    const sinkData = join(work, 'sink');
    daemons.push(await startDaemon(['sink', '--config', config, '--data', sinkData], 180_000));
    daemons.push(await startDaemon(['agent', '--config', config, '--tj', tj, '--tz', 'UTC', '--data', join(work, 'agent')], 180_000));

    // Throughput: the tree copied in at once.
    const { seconds: bulkS, stored } = await copyAndWait(truth, tj, sinkData);

    // Latency at a fixed rate.
    const rate = o.rate ?? 10_000;
    const seconds = o.seconds ?? 20;
    const v = await measureVisibility({ tj, data: sinkData, stored, rate, seconds });
    const final = await storedIn(sinkData);
    return {
      bench: 'kafka-e2e',
      input: { bulk_events: truth.events, bulk_bytes: truth.bytes, rate_events_per_s: rate, rate_seconds: seconds },
      figures: [
        { name: 'perfpipe ingest --tj, same tree (reference, whole process)', value: truth.events / ingestS, unit: 'events/s' },
        { name: 'TJ → agent → Kafka → sink → ClickHouse (bulk)', value: truth.events / bulkS, unit: 'events/s' },
        { name: 'bulk, file write to last row visible', value: bulkS, unit: 's' },
        { name: 'distributed / ingest (bar ≥ 0.5)', value: ingestS / bulkS, unit: '×' },
        { name: `visibility latency at ${rate} events/s, p50`, value: v.p50, unit: 'ms' },
        { name: `visibility latency at ${rate} events/s, p99 (bar < 1000)`, value: v.p99, unit: 'ms' },
      ],
      ok: final.count === v.written && final.unique === v.written && ingest.status === 0 && ingested === truth.events && v.p99 < 1000,
      notes: [`stored ${final.count} rows, ${final.unique} unique, of ${v.written} written`, `ingest: ${ingested} of ${truth.events} events in ${ingestS.toFixed(2)} s (exit ${ingest.status})`],
    };
  } finally {
    for (const d of daemons.reverse()) await d.stop('SIGTERM');
    await stopBroker();
    rmSync(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await runFromCommandLine(run);
