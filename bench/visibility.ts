// Visibility latency as a user meets it: TJ lines appended to a tailed file at a fixed rate in 100 ms ticks, and
// the store asked through the daemon's /sql every 50 ms; a tick is visible once the stored count covers its last
// event. Shared by kafka-e2e (agent → Kafka → sink) and run-visibility (`perfpipe run`, embedded) so both shapes
// meet the same load (issue #14, Deliver 6).
import { appendFileSync, cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeTjTree } from '../simulate/tj-generator.js';
import { storedIn } from '../test/support/daemon.js';
import { type BenchResult, figureRows, formatTable, quantile } from './figures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BulkTree {
  dir: string;
  events: number;
  bytes: number;
}

/** The generated tree both benches start from: an hour of 4 processes × 50 sessions (CALL, DBPOSTGRS, TLOCK…). */
export function writeBulkTree(dir: string, sizeMb: number): BulkTree {
  const truth = writeTjTree(dir, { seed: 7, start: new Date(Date.UTC(2026, 10, 30, 9)), durationMs: 3_600_000, processes: 4, sessionsPerProcess: 50, maxBytes: sizeMb * 1e6, timeZone: 'UTC' });
  return { dir, events: truth.events, bytes: truth.bytes };
}

/**
 * Copies the tree into the tailed location `tj` at once and waits (10 minutes at most) until the store behind
 * `data` holds its events: seconds from the copy's first byte to the last row visible, and the rows stored.
 */
export async function copyAndWait(tree: BulkTree, tj: string, data: string): Promise<{ seconds: number; stored: number }> {
  const t0 = Date.now();
  cpSync(tree.dir, join(tj, 'bulk'), { recursive: true });
  let stored = 0;
  while (stored < tree.events && Date.now() - t0 < 600_000) { await sleep(200); stored = (await storedIn(data)).count; }
  return { seconds: (Date.now() - t0) / 1000, stored };
}

/** The command line of both benches: `--size-mb 50 --rate 10000 --seconds 20`; prints the table and the notes. */
export async function runFromCommandLine(run: (o: { sizeMb: number; rate: number; seconds: number }) => Promise<BenchResult>): Promise<void> {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, rate: { type: 'string' }, seconds: { type: 'string' } } });
  const r = await run({ sizeMb: Number(values['size-mb'] ?? 50), rate: Number(values.rate ?? 10_000), seconds: Number(values.seconds ?? 20) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
}

export interface Visibility {
  /** Over the ticks, ms from a tick's append to the first poll that saw it (a tick never seen: Infinity). */
  p50: number;
  p99: number;
  /** Events in the store once every tick was written (the starting count plus the appended lines). */
  written: number;
}

/**
 * Appends `rate` events a second for `seconds` to a new file under `tj` (a new process folder, as a 1C server
 * starting a process makes one) and polls the store behind `data` until every line is stored or two minutes pass.
 * Every line is a CALL of its own connection, so the alerter's per-connection index meets thousands of new
 * connections a second. `stored`: the rows already in tj_events.
 */
export async function measureVisibility(o: { tj: string; data: string; stored: number; rate: number; seconds: number }): Promise<Visibility> {
  mkdirSync(join(o.tj, 'rphost_9'));
  const file = join(o.tj, 'rphost_9', '26113010.log');
  const ticks: Array<{ at: number; upTo: number }> = [];
  let written = o.stored;
  const perTick = Math.round(o.rate / 10);
  const seen: Array<{ at: number; count: number }> = [];
  const pollUntil = Date.now() + o.seconds * 1000 + 120_000;
  const poll = (async () => {
    while ((ticks.length < o.seconds * 10 || (seen.at(-1)?.count ?? 0) < written) && Date.now() < pollUntil) {
      seen.push({ at: Date.now(), count: (await storedIn(o.data)).count });
      await sleep(50);
    }
  })();
  for (let i = 0; i < o.seconds * 10; i++) {
    const lines: string[] = [];
    for (let k = 0; k < perTick; k++, written++) {
      const s = written % 3600;
      lines.push(`${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(written % 1e6).padStart(6, '0')}-${k},CALL,1,t:connectID=${written},Usr=u${written % 17},Context=Форма.Записать`);
    }
    appendFileSync(file, `${lines.join('\n')}\n`);
    ticks.push({ at: Date.now(), upTo: written });
    await sleep(Math.max(0, 100 - (Date.now() % 100)));
  }
  await poll;
  const series = ticks.map((t) => (seen.find((s) => s.count >= t.upTo)?.at ?? Number.NaN) - t.at);
  if (process.env.PERFPIPE_BENCH_SERIES) console.error(`latency series (ms): ${series.join(' ')}`);
  // A tick never seen counts as infinitely late: it must fail the p99, not drop out of it.
  const latencies = series.map((v) => (Number.isFinite(v) ? v : Number.POSITIVE_INFINITY)).sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), written };
}
