// Issue #28 item 3: every report a load test's people run, on a store shaped like an 11-hour run of 30,000 users
// (bench/lock-store.ts: 100M TJ events with the run's lock waits, timeouts, deadlocks, PostgreSQL waits and APDEX),
// over the whole run, one hour and ten minutes, as whole `perfpipe report` processes: wall time and peak RSS, the
// median of the rounds. Beside them, in the same run, `perfpipe sql "SELECT 1"` on the same store: what any command
// costs before its report (node, the engine opening its directory), so a report's own time is its figure minus that.
// Sizes are compared at the same 11 hours: 10M events is 3,000 users, 100M is 30,000 (lock episodes scale with them).
// Stores are built once into bench/work/ (a child process each; the 100M one takes an hour or more) and reused.
// Usage: npm run build && node dist/bench/lock-reports.js [--sizes 10000000,100000000] [--rounds 3]
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchWorkDir, isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';
import { median, timed } from './process-stats.js';
import { builtStore, lockStoreShape, type BuiltLockStore } from './lock-store.js';

const HOUR = 3600;
/** The bars of issue #28: the whole run and an hour within 1 s, ten minutes within 0.5 s (each report's own time). */
const BARS: Record<string, number> = { 'whole run': 1, hour: 1, '10 min': 0.5 };

interface ReportCase { name: string; args: (w: { from: string; to: string } | null, html: string) => string[]; windowed: boolean }

const REPORTS: ReportCase[] = [
  { name: 'locks', windowed: true, args: (w) => ['report', 'locks', '--format', 'json', ...win(w)] },
  { name: 'pg-locks', windowed: true, args: (w) => ['report', 'pg-locks', '--format', 'json', ...win(w)] },
  { name: 'pg-waits', windowed: true, args: (w) => ['report', 'pg-waits', '--format', 'json', ...win(w)] },
  { name: 'apdex', windowed: true, args: (w) => ['report', 'apdex', '--format', 'json', ...win(w)] },
  { name: 'sql', windowed: true, args: (w) => ['report', 'sql', '--format', 'json', ...win(w)] },
  { name: 'errors', windowed: true, args: (w) => ['report', 'errors', '--format', 'json', ...win(w)] },
  { name: 'all --html', windowed: true, args: (w, html) => ['report', 'all', '--html', html, '--tz', 'UTC', ...win(w)] },
  { name: 'runs', windowed: false, args: () => ['report', 'runs', '--format', 'json'] },
  { name: 'run-compare', windowed: false, args: () => ['report', 'run-compare', 'baseline', 'candidate', '--format', 'json'] },
];

const win = (w: { from: string; to: string } | null): string[] => (w === null ? [] : ['--from', w.from, '--to', w.to]);
const iso = (s: number): string => new Date(s * 1000).toISOString();

/** Builds the store of `events` events unless bench/work holds it already. */
async function store(events: number, notes: string[]): Promise<{ data: string; built: BuiltLockStore } | null> {
  const users = Math.round((30_000 * events) / 100_000_000);
  const shape = lockStoreShape(events, users);
  const data = join(benchWorkDir(), `lock-store-${events}`);
  const ready = builtStore(data, shape);
  if (ready !== null) return { data, built: ready };
  const r = await timed(process.execPath, [join(repoRoot(), 'dist', 'bench', 'lock-store.js'), data, String(events), String(users)], true);
  if (r.code !== 0) {
    notes.push(`building ${events} events failed: ${r.stderr.slice(-500)}`);
    rmSync(data, { recursive: true, force: true });
    return null;
  }
  return { data, built: JSON.parse(r.stdout.trim().split('\n').at(-1)!) as BuiltLockStore };
}

export async function run(options: { sizes?: number[]; rounds?: number } = {}): Promise<BenchResult> {
  const sizes = options.sizes ?? [2_000_000];
  const rounds = options.rounds ?? 3;
  const entry = join(repoRoot(), 'bin', 'perfpipe.js');
  if (!existsSync(join(repoRoot(), 'dist', 'bench', 'lock-store.js'))) return { bench: 'lock-reports', input: {}, figures: [], ok: false, notes: ['dist/ is missing: run npm run build first'] };
  const figures: BenchResult['figures'] = [];
  const notes: string[] = [];
  const input: BenchResult['input'] = {};
  const wholeRun = new Map<string, number[]>();
  let ok = true;
  for (const events of sizes) {
    const s = await store(events, notes);
    if (s === null) { ok = false; continue; }
    const { data, built } = s;
    const c = built.counts;
    input[`events_${events}`] = c.tj_events;
    notes.push(`${events} events: ${JSON.stringify(c)}; built in ${built.build_s.toFixed(0)} s, ${built.resolved} episodes worked out in ${built.resolve_s.toFixed(1)} s`);
    figures.push({ name: `${events} events: episodes worked out by the resolver, per s (the backfill's last step)`, value: built.resolved / built.resolve_s, unit: 'episodes/s' });
    const start = built.shape.start;
    const windows: Array<[string, { from: string; to: string }]> = [
      ['whole run', { from: iso(start), to: iso(start + built.shape.hours * HOUR) }],
      ['hour', { from: iso(start + 5 * HOUR), to: iso(start + 6 * HOUR) }],
      ['10 min', { from: iso(start + 5 * HOUR), to: iso(start + 5 * HOUR + 600) }],
    ];
    const html = join(benchWorkDir(), 'lock-report.html');
    const floor: number[] = [];
    const times = new Map<string, { s: number[]; peak: number[]; cpu: number[] }>();
    for (let round = 0; round < rounds; round++) {
      // The start-up floor first in every round: the machine's load moves both alike.
      const f = await timed(entry, ['sql', 'SELECT 1', '--data', data]);
      ok &&= f.code === 0;
      floor.push(f.s);
      for (const report of REPORTS) {
        for (const [label, w] of report.windowed ? windows : [['whole run', null] as const]) {
          const r = await timed(entry, [...report.args(w, html), '--data', data]);
          if (r.code !== 0) { ok = false; notes.push(`${report.name} ${label}: exit ${r.code}: ${r.stderr.slice(0, 300)}`); }
          const key = `${report.name}|${label}`;
          const t = times.get(key) ?? { s: [], peak: [], cpu: [] };
          t.s.push(r.s);
          t.peak.push(r.peakKiB / 1024);
          t.cpu.push(r.cpuS);
          times.set(key, t);
        }
      }
    }
    const startup = median(floor);
    figures.push({ name: `${events} events: perfpipe sql "SELECT 1" (the start-up every command pays)`, value: startup, unit: 's' });
    for (const [key, t] of times) {
      const [name, label] = key.split('|') as [string, string];
      const own = median(t.s) - startup;
      figures.push(
        { name: `${events} events: report ${name}, ${label}, whole process`, value: median(t.s), unit: 's' },
        { name: `${events} events: report ${name}, ${label}, beyond start-up (bar ≤ ${BARS[label]} s)`, value: own, unit: 's' },
        { name: `${events} events: report ${name}, ${label}, CPU of the whole process`, value: median(t.cpu), unit: 's' },
        { name: `${events} events: report ${name}, ${label}, peak RSS`, value: Math.max(...t.peak), unit: 'MiB' },
      );
      if (label === 'whole run') wholeRun.set(name, [...(wholeRun.get(name) ?? []), own]);
    }
  }
  if (sizes.length > 1) {
    const ratio = sizes.at(-1)! / sizes[0]!;
    for (const [name, own] of wholeRun) {
      if (own.length === sizes.length) figures.push({ name: `report ${name}, whole run: time at ${sizes.at(-1)} / at ${sizes[0]} events (data ×${ratio})`, value: own.at(-1)! / Math.max(own[0]!, 0.001), unit: '×' });
    }
  }
  return { bench: 'lock-reports', input, figures, ok, notes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { sizes: { type: 'string' }, rounds: { type: 'string' } } });
  const r = await run({
    ...(values.sizes ? { sizes: values.sizes.split(',').map(Number) } : {}),
    ...(values.rounds ? { rounds: Number(values.rounds) } : {}),
  });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const n of r.notes ?? []) console.log(n);
  if (!r.ok) process.exitCode = 1;
}
