// `perfpipe report locks` on generated TJ whose every conflict is planted (simulate/tj-lock-conflicts.ts): each
// wait, TTIMEOUT and TDEADLOCK must come back with its culprit connection, the culprit's transaction and the lock
// that conflicted — past decoys (the same lock in the culprit's earlier transaction, the culprit's number in the
// other infobase, non-conflicting locks of the same transaction). The sums per lock space, minute and context are
// recounted here from the plan, not from the report.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { buildLockScenario, writeLockScenario, type ExpectedWait, type LockScenario } from '../simulate/tj-lock-conflicts.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-lockknown-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const START = new Date(Date.UTC(2026, 10, 30, 9, 0, 0));
const EPISODES = 24;
const scenario: LockScenario = buildLockScenario({ seed: 20261130, start: START, episodes: EPISODES });
const data = join(work, 'data');

test.before(async () => {
  // Moscow server clock: the files are named and stamped in local time, the report speaks UTC.
  writeLockScenario(join(work, 'tj'), scenario, 'Europe/Moscow');
  const r = await runCli(['ingest', '--tj', join(work, 'tj'), '--tz', 'Europe/Moscow', '--data', data]);
  if (r.code !== 0 || !r.stdout.startsWith(`ingested ${scenario.events.length} events and 0 ingest errors`)) throw new Error(`ingest failed: ${r.stdout}${r.stderr}`);
});

interface Report {
  waits: unknown[]; timeouts: unknown[]; deadlocks: unknown[]; top_regions: unknown[];
  per_minute: unknown[]; top_contexts: unknown[];
}

/** Every status seen, by list: after `ingest` every episode is worked out (complete, or settled when the log lacks a side). */
const statuses = new Set<string>();

async function report(...window: string[]): Promise<Report> {
  const r = await runCli(['report', 'locks', '--format', 'json', '--data', data, ...window]);
  if (r.code !== 0) throw new Error(r.stderr);
  const parsed = JSON.parse(r.stdout) as Report;
  // The plan knows culprits, not how far the resolver got: the status is checked on its own below.
  const strip = (xs: unknown[]) => xs.map((x) => {
    const { culprit_status: status, ...rest } = x as { culprit_status: string };
    statuses.add(status);
    return rest;
  });
  return { ...parsed, waits: strip(parsed.waits), timeouts: strip(parsed.timeouts), deadlocks: strip(parsed.deadlocks) };
}

const minuteOf = (ts: string) => `${ts.slice(0, 16)}:00Z`;
const ms = (us: number) => Math.round(us / 100) / 10;
const add = <K, V>(m: Map<K, V>, k: K, init: () => V, f: (v: V) => void) => { const v = m.get(k) ?? init(); f(v); m.set(k, v); };
interface Totals { waits: number; wait_us: number; max_us: number; timeouts: number; deadlocks: number }
const zero = (): Totals => ({ waits: 0, wait_us: 0, max_us: 0, timeouts: 0, deadlocks: 0 });
const countWait = (w: ExpectedWait) => (t: Totals) => { t.waits++; t.wait_us += Math.round(w.wait_ms * 1000); t.max_us = Math.max(t.max_us, Math.round(w.wait_ms * 1000)); };
const shown = (t: Totals) => ({ waits: t.waits, total_wait_ms: ms(t.wait_us), max_wait_ms: ms(t.max_us), timeouts: t.timeouts, deadlocks: t.deadlocks });

test.serial('the plan has every kind of episode and every conflict class', (t) => {
  t.is(scenario.deadlocks.length, EPISODES / 3);
  t.is(scenario.timeouts.length, EPISODES / 3);
  t.is(scenario.waits.length, EPISODES);
  const classes = new Set([...scenario.waits, ...scenario.timeouts].flatMap((v) => v.culprits.map((c) => c.lock?.match)));
  t.deepEqual([...classes].sort(), ['escalation', 'exact', 'overlap']);
  const unlogged = scenario.timeouts.filter((x) => x.culprits[0]?.tx_start === null);
  t.true(unlogged.length > 0 && unlogged.length < scenario.timeouts.length, 'some culprit transactions are not in the log');
});

test.serial('every wait, timeout and deadlock comes back with its culprit, transaction and conflicting lock', async (t) => {
  const r = await report();
  t.deepEqual(r.timeouts, scenario.timeouts);
  t.deepEqual(r.deadlocks, scenario.deadlocks);
  t.deepEqual(r.waits, scenario.waits);
  t.deepEqual([...statuses].sort(), ['complete', 'settled']);
});

test.serial('lock spaces, minutes and contexts sum the planted waits, timeouts and deadlocks', async (t) => {
  const r = await report();
  const regions = new Map<string, Totals & { conns: Set<number> }>();
  for (const w of scenario.waits) {
    for (const region of w.regions) add(regions, `${w.infobase}|${region}`, () => ({ ...zero(), conns: new Set<number>() }), (v) => { countWait(w)(v); v.conns.add(w.connect_id); });
  }
  const topRegions = [...regions].map(([k, v]) => {
    const [infobase, region] = k.split('|') as [string, string];
    return { infobase, region, waits: v.waits, total_wait_ms: ms(v.wait_us), max_wait_ms: ms(v.max_us), waiting_connections: v.conns.size };
  }).sort((a, b) => b.total_wait_ms - a.total_wait_ms || (a.infobase < b.infobase ? -1 : a.infobase > b.infobase ? 1 : a.region < b.region ? -1 : 1));
  t.deepEqual(r.top_regions, topRegions.slice(0, 20));

  const minutes = new Map<string, Totals>();
  const contexts = new Map<string, Totals>();
  for (const w of scenario.waits) {
    add(minutes, `${minuteOf(w.ts)}|${w.infobase}`, zero, countWait(w));
    add(contexts, `${w.infobase}|${w.context}`, zero, countWait(w));
  }
  for (const x of scenario.timeouts) {
    add(minutes, `${minuteOf(x.ts)}|${x.infobase}`, zero, (v) => { v.timeouts++; });
    add(contexts, `${x.infobase}|${x.victim_context}`, zero, (v) => { v.timeouts++; });
  }
  for (const d of scenario.deadlocks) {
    add(minutes, `${minuteOf(d.ts)}|${d.infobase}`, zero, (v) => { v.deadlocks++; });
    add(contexts, `${d.infobase}|${d.victim_context}`, zero, (v) => { v.deadlocks++; });
  }
  t.deepEqual(r.per_minute, [...minutes].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => {
    const [minute, infobase] = k.split('|') as [string, string];
    return { minute, infobase, ...shown(v) };
  }));
  const byContext = [...contexts].map(([k, v]) => {
    const [infobase, context] = k.split('|') as [string, string];
    return { infobase, context, ...shown(v) };
  }).sort((a, b) => b.total_wait_ms - a.total_wait_ms || (b.timeouts + b.deadlocks) - (a.timeouts + a.deadlocks)
    || (a.infobase < b.infobase ? -1 : a.infobase > b.infobase ? 1 : a.context < b.context ? -1 : 1));
  t.deepEqual(r.top_contexts, byContext.slice(0, 20));
});

test.serial('a window holds exactly the episodes that end in it, with culprits found before the window starts', async (t) => {
  // Episodes 3–5 (9:06–9:12): the culprits' transactions of episode 3 begin at 9:06:00.1, inside; a window from
  // 9:06:00.5 leaves the culprit's transaction start (and the deadlock's first locks) before it.
  const from = new Date(START.getTime() + 3 * 120_000 + 500).toISOString();
  const to = new Date(START.getTime() + 6 * 120_000).toISOString();
  const r = await report('--from', from, '--to', to);
  const inside = (ts: string) => ts >= from.replace(/\.(\d{3})Z$/, '.$1000Z') && ts < to.replace(/\.(\d{3})Z$/, '.$1000Z');
  t.deepEqual(r.timeouts, scenario.timeouts.filter((x) => inside(x.ts)));
  t.deepEqual(r.deadlocks, scenario.deadlocks.filter((x) => inside(x.ts)));
  t.deepEqual(r.waits, scenario.waits.filter((x) => inside(x.ts)));
  t.true(r.deadlocks.length + r.timeouts.length >= 2);
});
