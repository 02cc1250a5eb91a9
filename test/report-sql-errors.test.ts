// `report sql` and `report errors` agree with a count() over the raw tables on the same window (issue #25's bar):
// whole runs, windows on minute boundaries (the rollup alone), and windows cut inside minutes (the rollup plus the
// raw edges of tj_sql_window, queries/ddl/060_tj_sql.sql). The store is a simulated load test, ingested as a user would.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Expected } from '../simulate/load-expected.js';
import type { SqlReport } from '../queries/reports/sql-report.js';
import type { ErrorsReport } from '../queries/reports/errors-report.js';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-sql-errors-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));
const out = join(work, 'run');
const data = join(work, 'data');
const DB = "event IN ('DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng') AND sql_hash != 0";

// No --tz or --pg-prefix: ingest finds the zone simulate wrote (tj/timezone.txt) and the log's prefix, as a user's would.
const setup = (async () => {
  const sim = await runCli(['simulate', '--out', out, '--users', '8', '--duration', '200s', '--rate', '120', '--seed', '9', '--conflicts-per-minute', '6']);
  if (sim.code !== 0) throw new Error(`simulate failed: ${sim.stderr}`);
  const ingest = await runCli(['ingest', '--tj', join(out, 'tj'), '--pg', join(out, 'pg'), '--data', data]);
  if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);
  return JSON.parse(readFileSync(join(out, 'expected.json'), 'utf8')) as Expected & { options: { start: string } };
})();

async function sql(query: string): Promise<Record<string, string>[]> {
  const r = await runCli(['sql', query, '--format', 'json', '--data', data]);
  if (r.code !== 0) throw new Error(`sql failed: ${r.stderr}`);
  return r.stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, string>);
}

async function report<T>(name: string, from: string, to: string): Promise<T> {
  const r = await runCli(['report', name, '--format', 'json', '--data', data, '--from', from, '--to', to]);
  if (r.code !== 0) throw new Error(`report ${name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** Windows over the 200 s run starting at `start`: whole, on minutes, cut inside minutes, inside one minute. */
function windows(start: string): Array<[string, string]> {
  const at = (s: number): string => new Date(Date.parse(start) + s * 1000).toISOString();
  return [[at(-60), at(300)], [at(60), at(180)], [at(17.25), at(143.5)], [at(61.5), at(62.75)]];
}

const range = (from: string, to: string): string => `ts >= toDateTime64('${from.replace('T', ' ').replace('Z', '')}', 3, 'UTC') AND ts < toDateTime64('${to.replace('T', ' ').replace('Z', '')}', 3, 'UTC')`;

test('report sql counts every DB statement of the window, statement by statement, as count() over tj_events does', async (t) => {
  const expected = await setup;
  let checked = 0;
  for (const [from, to] of windows(expected.options.start)) {
    const r = await report<SqlReport>('sql', from, to);
    const [all] = await sql(`SELECT count() AS n, sum(duration_us) AS us, uniqExact(sql_hash) AS shapes FROM tj_events WHERE ${DB} AND ${range(from, to)}`);
    t.is(r.total.count, Number(all?.n), `${from} → ${to}`);
    t.is(Math.round(r.total.seconds * 1e6), Number(all?.us ?? 0));
    t.is(r.total.statements, Number(all?.shapes));
    const per = new Map((await sql(`SELECT toString(sql_hash) AS h, count() AS n, sum(duration_us) AS us FROM tj_events WHERE ${DB} AND ${range(from, to)} GROUP BY h`)).map((x) => [x.h, x]));
    for (const s of r.statements) {
      t.is(s.count, Number(per.get(s.sql_hash)?.n), s.sql_hash);
      t.is(Math.round(s.seconds * 1e6), Number(per.get(s.sql_hash)?.us));
      t.is(s.contexts.reduce((a, c) => a + c.count, 0) <= s.count, true);
      checked++;
    }
  }
  t.true(checked > 20, `${checked} statements checked`);
});

test('report sql puts the planted statement first in the run, with most of month closing\'s DB time', async (t) => {
  const expected = await setup;
  const [from, to] = windows(expected.options.start)[0]!;
  const r = await report<SqlReport>('sql', from, to);
  const top = r.statements[0];
  t.is(top?.sql, expected.why.dominant?.sql);
  // Every execution written, those of calls the run's end cut off included (`why` counts those inside calls).
  t.is(top?.count, expected.why.dominant?.written.count);
  t.is(Math.round((top?.seconds ?? 0) * 1e6), expected.why.dominant?.written.us ?? -1);
  t.is(top?.contexts[0]?.context, expected.why.dominant?.operation);
  t.true((top?.p95_ms ?? 0) > 400 && (top?.p95_ms ?? 0) <= 600, `p95 ${top?.p95_ms}`);
});

test('report errors counts every EXCP/QERR and every PostgreSQL ERROR/FATAL of the window, group by group', async (t) => {
  const expected = await setup;
  let groups = 0;
  for (const [from, to] of windows(expected.options.start)) {
    const r = await report<ErrorsReport>('errors', from, to);
    const [tj] = await sql(`SELECT count() AS n FROM tj_events WHERE event IN ('EXCP', 'QERR') AND ${range(from, to)}`);
    t.is(r.one_c.reduce((a, e) => a + e.count, 0), Number(tj?.n), `${from} → ${to}`);
    for (const e of r.one_c) {
      const [g] = await sql(`SELECT count() AS n FROM tj_events WHERE event = '${e.event}' AND exception = '${e.exception}' AND position(descr, '${e.descr_first.replaceAll('\\', '\\\\')}') > 0 AND ${range(from, to)}`);
      t.is(e.count, Number(g?.n), `${e.exception} ${e.descr_first}`);
      t.true(e.contexts.reduce((a, c) => a + c.count, 0) <= e.count);
      groups++;
    }
    const [pg] = await sql(`SELECT count() AS n FROM pg_log WHERE severity IN ('ERROR', 'FATAL', 'PANIC') AND ${range(from, to)}`);
    t.is(r.postgresql.reduce((a, e) => a + e.count, 0), Number(pg?.n));
  }
  t.true(groups >= 2, `${groups} groups checked`);
  const whole = await report<ErrorsReport>('errors', ...windows(expected.options.start)[0]!);
  t.is(whole.one_c.filter((e) => e.exception === 'TLockException').reduce((a, e) => a + e.count, 0), expected.timeouts.length + expected.deadlocks.length);
  t.deepEqual(whole.postgresql.map((e) => [e.severity, e.pattern]), expected.pg_episodes.some((e) => e.outcome === 'deadlock') ? [['ERROR', 'deadlock detected']] : []);
});
