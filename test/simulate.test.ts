// `perfpipe simulate` end to end, as a user runs it: a small load test written to disk, every file ingested into a
// throwaway store, and the reports (`report apdex|locks|pg-locks --format json`) agree exactly with the
// expected.json the simulator wrote beside the files. expected.json is counted by the simulator from what it
// generated (run times, planned conflicts), never from perfpipe's parsers, so a wrong parser or report fails here.
import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Expected, ExpectedCulprit } from '../simulate/load-expected.js';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-simulate-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const out = join(work, 'run');
const data = join(work, 'data');

type Json = Record<string, unknown>;
let expected: Expected;
// Issue 30's first run: simulate, then ingest every folder with nothing else said. The TJ is written in Moscow time
// (not this machine's zone, unless it is Moscow's) and found so from tj/timezone.txt; the PostgreSQL log's prefix
// (Debian's, the simulator's default) is found from its first lines.
const setup = (async () => {
  const sim = await runCli(['simulate', '--out', out, '--users', '8', '--duration', '90s', '--rate', '150', '--seed', '3', '--tz', 'Europe/Moscow']);
  if (sim.code !== 0) throw new Error(`simulate failed: ${sim.stderr}`);
  expected = JSON.parse(readFileSync(join(out, 'expected.json'), 'utf8')) as Expected;
  const ingest = await runCli(['ingest', '--tj', join(out, 'tj'), '--pg', join(out, 'pg'), '--atop', join(out, 'atop'),
    '--apdex', join(out, 'apdex'), '--data', data]);
  if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);
  return { sim, ingest };
})();

async function report(name: string): Promise<Json> {
  const r = await runCli(['report', name, '--format', 'json', '--data', data]);
  if (r.code !== 0) throw new Error(`report ${name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Json;
}

/** The one value of a one-row query (`sql --format json` prints one JSON object per row; UInt64 as a string). */
async function count(sql: string): Promise<number> {
  const r = await runCli(['sql', sql, '--format', 'json', '--data', data]);
  if (r.code !== 0) throw new Error(`sql failed: ${r.stderr}`);
  return Number(Object.values(JSON.parse(r.stdout.trim().split('\n')[0] ?? '{}') as Json)[0]);
}

const byTs = <T extends { ts: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.ts.localeCompare(b.ts));

test('the run holds every kind of lock trouble, so the comparisons below cannot pass on an empty list', async (t) => {
  const { sim, ingest } = await setup;
  t.regex(sim.stdout, /^simulated \d+ TJ events \(\d+ events\/s\) in \d+ files/);
  t.regex(ingest.stdout, / and 0 ingest errors /);
  t.notRegex(ingest.stderr, /log_line_prefix|apart/);
  t.true(expected.timeouts.length >= 1);
  t.true(expected.deadlocks.length >= 1);
  t.true(expected.waits.length >= 3);
  t.true(expected.pg_episodes.some((e) => e.outcome === 'acquired'));
  t.true(expected.pg_episodes.some((e) => e.outcome === 'deadlock'));
  t.true(expected.apdex.operations.length >= 3);
  t.true(expected.apdex.operations.some((o) => o.frustrated > 0 && o.tolerating > 0));
  t.true(expected.pg_episodes.some((e) => e.object === expected.relation_extension && e.mode === 'ExclusiveLock'));
  t.true((expected.why.dominant?.share_of_db ?? 0) > 0.5);
  t.deepEqual(expected.settings.map((c) => [c.name, c.during]), [['work_mem', null], ['random_page_cost', null], ['checkpoint_timeout', 'sim-2']]);
  const folders = readdirSync(join(out, 'tj')).filter((f) => f !== 'timezone.txt');
  t.true(folders.length >= 2 && folders.every((f) => /^rphost_\d+$/.test(f)), folders.join(' '));
});

test.serial('every TJ event and every non-since-boot atop sample is stored', async (t) => {
  await setup;
  t.is(await count('SELECT count() FROM tj_events'), expected.tj.events);
  t.is(await count('SELECT count() FROM atop_system'), expected.atop.stored_samples);
  t.is(await count("SELECT count() FROM tj_events WHERE event = 'TTIMEOUT'"), expected.timeouts.length);
});

test.serial('report apdex gives the N, S, T, F and APDEX of every key operation that expected.json counted', async (t) => {
  await setup;
  const r = await report('apdex') as { operations: Json[]; overall: { count_weighted: Json } };
  const got = r.operations.map((o) => ({ operation: o.operation, target_s: o.target_s, n: o.n, satisfied: o.satisfied, tolerating: o.tolerating, frustrated: o.frustrated, apdex: o.apdex }));
  const sort = (xs: { operation: unknown }[]) => [...xs].sort((a, b) => String(a.operation).localeCompare(String(b.operation)));
  t.deepEqual(sort(got), sort(expected.apdex.operations));
  const { n, satisfied, tolerating, frustrated, apdex } = r.overall.count_weighted;
  t.deepEqual({ n, satisfied, tolerating, frustrated, apdex }, expected.apdex.overall_count_weighted);
});

/** Every culprit's connection, user and context, its transaction and the lock that conflicted (§5.4 steps 3–4). */
function sameCulprits(t: ExecutionContext, got: unknown, want: ExpectedCulprit[], what: string): void {
  if (!Array.isArray(got)) { t.fail(`${what}: the report gives no culprits list`); return; }
  const fields = ({ connect_id, user, context, tx_start, tx_end, tx_outcome }: Json) => ({ connect_id, user, context, tx_start, tx_end, tx_outcome });
  t.deepEqual((got as Json[]).map(fields), want.map((c) => fields(c as unknown as Json)), what);
  for (const [k, c] of want.entries()) t.like((got as Json[])[k]?.lock as Json ?? {}, c.lock, `${what}, culprit ${c.connect_id}: the lock`);
}

test.serial('report locks names the victim and culprit connections of every timeout, deadlock and wait', async (t) => {
  await setup;
  const r = await report('locks') as { timeouts: Json[]; deadlocks: Json[]; waits: Json[] };
  const timeouts = byTs(r.timeouts as unknown as Expected['timeouts']);
  t.is(timeouts.length, expected.timeouts.length);
  for (const [i, { culprits, ...rest }] of byTs(expected.timeouts).entries()) {
    const got = timeouts[i] as unknown as Json;
    t.like(got, rest);
    sameCulprits(t, got.culprits, culprits, `timeout at ${rest.ts}`);
  }
  const deadlocks = byTs(r.deadlocks as unknown as Expected['deadlocks']);
  t.deepEqual(deadlocks.map((d) => ({ ts: d.ts, infobase: d.infobase, victim_connect_id: d.victim_connect_id, edges: d.edges.map((e) => ({ waiter: e.waiter, holder: e.holder })) })), byTs(expected.deadlocks));
  const waits = byTs(r.waits as unknown as Expected['waits']);
  t.deepEqual(waits.map((w) => ({ ts: w.ts, infobase: w.infobase, connect_id: w.connect_id, culprit_connect_ids: w.culprit_connect_ids, wait_ms: w.wait_ms })),
    byTs(expected.waits).map(({ culprits: _, ...w }) => w));
  for (const [i, want] of byTs(expected.waits).entries()) sameCulprits(t, (waits[i] as unknown as Json).culprits, want.culprits, `wait at ${want.ts}`);
});

test.serial('report pg-locks gives every PostgreSQL wait with the TJ connections of its waiter and holder', async (t) => {
  await setup;
  const r = await report('pg-locks') as { episodes: Json[] };
  const got = r.episodes.map((e) => ({
    pid: e.pid, mode: e.mode, object: e.object, outcome: e.outcome, wait_ms: e.wait_ms, holder_pids: e.holder_pids, queue_pids: e.queue_pids,
    // ClickHouse writes UInt64 as JSON strings.
    waiter_connect_id: Number(e.waiter_connect_id), holder_connect_id: Number(e.holder_connect_id),
  }));
  const sort = <T extends { pid: unknown; object: unknown }>(xs: T[]) => [...xs].sort((a, b) => `${String(a.object)}|${String(a.pid)}`.localeCompare(`${String(b.object)}|${String(b.pid)}`));
  t.deepEqual(sort(got), sort(expected.pg_episodes));
});

test('parse pg on the simulated log closes the same episodes', async (t) => {
  await setup;
  const r = await runCli(['parse', 'pg', join(out, expected.pg.file)]); // the simulator's prefix, found
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { lock_episodes: { pid: number; outcome: string; holder_pids: number[]; wait_ms: number | null }[] });
  t.is(lines.length, expected.pg.entries);
  const episodes = lines.flatMap((l) => l.lock_episodes).map((e) => ({ pid: e.pid, outcome: e.outcome, holder_pids: e.holder_pids, wait_ms: e.wait_ms }));
  const want = expected.pg_episodes.map((e) => ({ pid: e.pid, outcome: e.outcome, holder_pids: e.holder_pids, wait_ms: e.wait_ms }));
  const key = (e: { pid: number }) => e.pid;
  t.deepEqual([...episodes].sort((a, b) => key(a) - key(b)), [...want].sort((a, b) => key(a) - key(b)));
});

test('a richer log_line_prefix is written so that parse pg, told nothing, reads every line with it', async (t) => {
  const dir = join(work, 'prefix');
  const prefix = '%m %n [%p] %c:%l %q%u@%d app=%a client=%r ';
  const sim = await runCli(['simulate', '--out', dir, '--users', '4', '--duration', '70s', '--rate', '60', '--seed', '11', '--conflicts-per-minute', '8', '--pg-prefix', prefix]);
  t.is(sim.code, 0, sim.stderr);
  const want = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected;
  t.true(want.pg_episodes.length >= 2);
  const r = await runCli(['parse', 'pg', join(dir, want.pg.file)]); // found from the log's first lines
  t.is(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { severity: string | null; pid: number; lock_episodes: { pid: number; outcome: string; holder_pids: number[] }[] });
  // A line the prefix does not match becomes an orphan with severity null: none may.
  t.deepEqual(lines.filter((l) => l.severity === null), []);
  t.is(lines.length, want.pg.entries);
  const got = lines.flatMap((l) => l.lock_episodes).map((e) => ({ pid: e.pid, outcome: e.outcome, holder_pids: e.holder_pids }));
  const sort = <T extends { pid: number }>(xs: T[]) => [...xs].sort((a, b) => a.pid - b.pid);
  t.deepEqual(sort(got), sort(want.pg_episodes.map((e) => ({ pid: e.pid, outcome: e.outcome, holder_pids: e.holder_pids }))));
});

test('the TJ read in another zone than its own is said to sit whole hours from the PostgreSQL log and atop', async (t) => {
  await setup;
  const r = await runCli(['ingest', '--tj', join(out, 'tj'), '--pg', join(out, 'pg'), '--atop', join(out, 'atop'), '--tz', 'Asia/Tokyo', '--data', join(work, 'data-tokyo')]);
  t.is(r.code, 0, r.stderr);
  // Tokyo is six hours east of Moscow: read as Tokyo time, the TJ comes out six hours early.
  t.regex(r.stderr, /warning: the TJ \(.* read in Asia\/Tokyo\) and the PostgreSQL log of this ingest .* are 6 hours apart; they line up when the TJ is moved later by 6 h/);
  t.regex(r.stderr, /warning: the TJ .* and the atop samples of this ingest .* are 6 hours apart/);
});

test('simulate writes the TJ in the zone ingest assumes, and says which in tj/timezone.txt', async (t) => {
  const dir = join(work, 'default-zone');
  const sim = await runCli(['simulate', '--out', dir, '--users', '2', '--duration', '5s', '--rate', '20']);
  t.is(sim.code, 0, sim.stderr);
  t.is(readFileSync(join(dir, 'tj', 'timezone.txt'), 'utf8').split('\n')[0], Intl.DateTimeFormat().resolvedOptions().timeZone);
  t.is(readFileSync(join(out, 'tj', 'timezone.txt'), 'utf8').split('\n')[0], 'Europe/Moscow');
});

function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[p.slice(dir.length)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

test('the same seed writes the same bytes; another seed does not', async (t) => {
  const runs = ['a', 'b', 'c'].map((n) => join(work, `seed-${n}`));
  for (const [i, dir] of runs.entries()) {
    const r = await runCli(['simulate', '--out', dir, '--users', '4', '--duration', '40s', '--rate', '50', '--seed', i === 2 ? '8' : '7']);
    t.is(r.code, 0, r.stderr);
  }
  const [a, b, c] = runs.map(digest);
  t.deepEqual(a, b);
  t.notDeepEqual(a, c);
});

test('--realtime writes each record when its time comes', async (t) => {
  const dir = join(work, 'live');
  const t0 = Date.now();
  const r = await runCli(['simulate', '--out', dir, '--users', '2', '--duration', '3s', '--rate', '40', '--seed', '5', '--realtime']);
  t.is(r.code, 0, r.stderr);
  t.true(Date.now() - t0 >= 2_500, `took ${Date.now() - t0} ms`);
  const live = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected;
  // Count the event headers in the written TJ files: an independent count of what expected.json claims.
  let headers = 0;
  for (const folder of readdirSync(join(dir, 'tj')).filter((f) => f !== 'timezone.txt')) {
    for (const file of readdirSync(join(dir, 'tj', folder))) {
      headers += readFileSync(join(dir, 'tj', folder, file), 'utf8').split('\n').filter((l) => /^\uFEFF?\d\d:\d\d\.\d{6}-\d+,[A-Za-z]+,\d+,/.test(l)).length;
    }
  }
  t.true(live.tj.events > 0);
  t.is(headers, live.tj.events);
});

test('simulate refuses a directory that already holds files, and says why', async (t) => {
  const dir = join(work, 'busy');
  mkdirSync(dir);
  writeFileSync(join(dir, 'x'), '');
  const r = await runCli(['simulate', '--out', dir]);
  t.is(r.code, 2);
  t.is(r.stderr, `perfpipe: --out: ${dir} is not empty; give a new or empty directory\n`);
});
