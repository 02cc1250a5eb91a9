// `report why` end to end (issue #25's bar): a simulated load test — calls of several threads overlapping in one
// process, threads serving several connections, a process without OSThread, a run crossing an hour file — is
// ingested as a user would (`perfpipe ingest`), the splits decided as the events arrived; `report why --format json`
// gives each operation's split exactly as the simulator decided it (expected.json `why`, to the µs), names the
// planted dominant statement first in its operation, and over windows cut inside minutes equals the raw call rows.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Expected } from '../simulate/load-expected.js';
import type { WhyReport } from '../queries/reports/why-report.js';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-why-report-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));
const out = join(work, 'run');
const data = join(work, 'data');
// 08:59:10 UTC in Moscow is 11:59:10: the run crosses 12:00, so calls begin in one hour file and end in the next.
const START = '2026-11-30T08:59:10Z';

const setup = (async () => {
  const sim = await runCli(['simulate', '--out', out, '--users', '12', '--duration', '100s', '--rate', '200', '--seed', '5', '--start', START, '--tz', 'Europe/Moscow']);
  if (sim.code !== 0) throw new Error(`simulate failed: ${sim.stderr}`);
  const ingest = await runCli(['ingest', '--tj', join(out, 'tj'), '--apdex', join(out, 'apdex'), '--data', data]);
  if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);
  return JSON.parse(readFileSync(join(out, 'expected.json'), 'utf8')) as Expected;
})();

async function why(...flags: string[]): Promise<WhyReport> {
  const r = await runCli(['report', 'why', '--format', 'json', '--data', data, ...flags]);
  if (r.code !== 0) throw new Error(`report why failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as WhyReport;
}

async function sql(query: string): Promise<Record<string, string>[]> {
  const r = await runCli(['sql', query, '--format', 'json', '--data', data]);
  if (r.code !== 0) throw new Error(`sql failed: ${r.stderr}`);
  return r.stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, string>);
}

const us = (s: number): number => Math.round(s * 1e6);

test.serial('report why gives every operation\'s split as the simulator decided it, to the microsecond, most time first', async (t) => {
  const expected = await setup;
  const r = await why();
  t.deepEqual(r.operations.map((o) => o.operation).sort(), expected.why.operations.map((o) => o.operation).sort());
  for (const want of expected.why.operations) {
    const o = r.operations.find((x) => x.operation === want.operation);
    t.deepEqual(
      { calls: o?.calls, us: us(o?.seconds ?? -1), db_us: us(o?.db_seconds ?? -1), lock_wait_us: us(o?.lock_wait_seconds ?? -1), cpu_us: us(o?.cpu_seconds ?? -1), thread_wait_us: us(o?.thread_wait_seconds ?? -1), other_us: us(o?.other_seconds ?? -1) },
      { calls: want.calls, us: want.us, db_us: want.db_us, lock_wait_us: want.lock_wait_us, cpu_us: want.cpu_us, thread_wait_us: want.thread_wait_us, other_us: want.other_us },
      want.operation,
    );
    // The parts add up to the whole in µs (docs/tj-format.md §4.3: whole µs / 10^6).
    t.is(us(o!.db_seconds) + us(o!.lock_wait_seconds) + us(o!.cpu_seconds) + us(o!.thread_wait_seconds) + us(o!.other_seconds), us(o!.seconds));
    t.is(o?.top_sql[0]?.sql, want.top_sql.sql, `${want.operation}: top statement`);
    t.is(us(o?.top_sql[0]?.seconds ?? 0), want.top_sql.us);
    t.deepEqual(o?.flagged, {});
  }
  const seconds = r.operations.map((o) => o.seconds);
  t.deepEqual(seconds, [...seconds].sort((a, b) => b - a));
});

test.serial('report why names the planted statement as the one that dominates its operation, and gives APDEX with the export\'s T', async (t) => {
  const expected = await setup;
  const dominant = expected.why.dominant!;
  const r = await why('--operation', dominant.operation);
  t.is(r.operations.length, 1);
  const [o] = r.operations;
  t.is(o?.top_sql[0]?.sql, dominant.sql);
  t.true((o?.top_sql[0]?.seconds ?? 0) / (o?.db_seconds ?? 1) > 0.5);
  // The export names its operations by the calls' first context line (simulate/apdex-from-calls.ts): its T applies.
  t.not(o?.target_s, null);
  t.true(typeof o?.apdex === 'number' && o.apdex >= 0 && o.apdex <= 1);
  // Slowest calls, slowest first, each with a split that adds up.
  t.true((o?.slowest_calls.length ?? 0) > 0);
  for (const c of o?.slowest_calls ?? []) t.is(us(c.db_seconds) + us(c.lock_wait_seconds) + us(c.cpu_seconds) + us(c.thread_wait_seconds) + us(c.other_seconds), us(c.seconds));
  const slow = (o?.slowest_calls ?? []).map((c) => c.seconds);
  t.deepEqual(slow, [...slow].sort((a, b) => b - a));
});

test.serial('an operation with no calls in the window gets a line, not an error', async (t) => {
  await setup;
  const r = await why('--operation', 'Нет такой операции');
  t.deepEqual(r.operations, []);
  t.deepEqual(r.notes, ['operation "Нет такой операции": no calls in the window']);
});

test.serial('over windows cut inside minutes, report why (rollup + raw edges) equals the stored call rows of the window', async (t) => {
  await setup;
  const at = (s: number): string => new Date(Date.parse(START) + s * 1000).toISOString();
  for (const [from, to] of [[at(17.25), at(83.5)], [at(50.5), at(52.75)], [at(-60), at(300)]] as const) {
    const r = await why('--from', from, '--to', to);
    const range = `ts >= toDateTime64('${from.replace('T', ' ').replace('Z', '')}', 6, 'UTC') AND ts < toDateTime64('${to.replace('T', ' ').replace('Z', '')}', 6, 'UTC')`;
    const raw = await sql(`SELECT context_first AS op, count() AS n, sum(duration_us) AS us, sum(db_us) AS db, sum(other_us) AS other FROM tj_call_splits WHERE ${range} GROUP BY op`);
    t.is(r.operations.length, raw.length, `${from} → ${to}`);
    for (const x of raw) {
      const o = r.operations.find((y) => y.operation === x.op);
      t.deepEqual([o?.calls, us(o?.seconds ?? -1), us(o?.db_seconds ?? -1), us(o?.other_seconds ?? -1)], [Number(x.n), Number(x.us), Number(x.db), Number(x.other)], `${x.op} ${from} → ${to}`);
    }
  }
});

test.serial('every CALL of the journal has exactly one split row', async (t) => {
  await setup;
  const [calls] = await sql("SELECT count() AS n FROM tj_events WHERE event = 'CALL'");
  const [splits] = await sql('SELECT count() AS n, uniqExact(file_key, file_offset) AS distinct_calls FROM tj_call_splits');
  t.is(splits?.n, calls?.n);
  t.is(splits?.distinct_calls, calls?.n);
});
