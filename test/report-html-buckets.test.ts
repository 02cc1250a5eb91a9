// Short runs chart well (issue #15 item 4): the charts of a 20 s `perfpipe demo` run have a point per few seconds,
// at least ten, read from the raw rows by the rollups' own rules, so the points of each chart add up to the
// window's tables; a ten-minute load test (test/report-html-fixture.ts) keeps one point per minute.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { writeFixture } from './report-html-fixture.js';
import { openStoreAccess, type StoreAccess } from '../queries/store-access.js';
import { runWindow } from '../cli/commands/runs.js';
import { windowParams } from '../queries/reports/window-params.js';
import { reportParams, reportSql } from '../queries/reports/reports.js';
import { collectReportPage, SECTIONS, type WindowRows } from '../queries/report-html/collect-page.js';
import type { ApdexMinute, ReportPage } from '../queries/report-html/report-page.js';
import { lockTimeline } from '../queries/report-html/sections/locks-section.js';
import { atopSection } from '../queries/report-html/sections/atop-section.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-buckets-'));
const data = join(work, 'demo', 'data');
let access: StoreAccess | undefined;
test.after.always(async () => {
  await access?.close();
  rmSync(work, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<void> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`perfpipe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
}

interface Run { window: { from: number; to: number }; page: ReportPage; rows: WindowRows }
let short: Run;
let long: Run;
let rowsOf: (window: { from: number; to: number }) => WindowRows;

test.before(async () => {
  // One store for both runs: the embedded engine binds one data directory per process.
  await cli(['demo', '--dir', join(work, 'demo'), '--seconds', '20']);
  await cli(['ingest', ...writeFixture(join(work, 'fixture')), '--data', data]);
  const store = await openStoreAccess({ data });
  access = store;
  rowsOf = (window) => (name, extra = {}) => store.rows(reportSql(name), reportParams(name, { ...windowParams(window), ...extra }) as Record<string, string | number>);
  const pageOf = async (window: { from: number; to: number }, run: string): Promise<Run> => {
    const rows = rowsOf(window);
    return { window, rows, page: await collectReportPage(rows, SECTIONS, { title: run, run, window, timeZone: 'UTC', generatedAt: 0 }) };
  };
  short = await pageOf(await runWindow(store, 'demo'), 'demo');
  long = await pageOf({ from: Date.UTC(2026, 10, 30, 10, 0) / 1000, to: Date.UTC(2026, 10, 30, 10, 10) / 1000 }, 'fixture');
});

const overall = (minutes: readonly ApdexMinute[]): ApdexMinute[] => minutes.filter((m) => m.scope === 'overall_count_weighted');
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

test('a 20 s run draws APDEX in buckets of a few seconds, at least ten points, that add up to the window\'s table', (t) => {
  const { page } = short;
  t.true(short.window.to - short.window.from < 60, `demo window ${JSON.stringify(short.window)}`);
  const bucket = page.bucket ?? 60;
  t.true(bucket < 60 && 60 % bucket === 0, `bucket ${bucket}`);
  const a = page.apdex;
  if (a === undefined) throw new Error('no APDEX section');
  const points = overall(a.minutes);
  t.true(points.length >= 10, `${points.length} points of ${bucket} s`);
  t.true(points.every((p) => p.t % bucket === 0 && p.t >= page.domain.from && p.t + bucket <= page.domain.to));
  const total = a.report.overall.count_weighted;
  if (total === null) throw new Error('no overall APDEX');
  t.deepEqual(
    { n: sum(points.map((p) => p.n)), satisfied: sum(points.map((p) => p.satisfied)), tolerating: sum(points.map((p) => p.tolerating)), frustrated: sum(points.map((p) => p.frustrated)) },
    { n: total.n, satisfied: total.satisfied, tolerating: total.tolerating, frustrated: total.frustrated },
  );
  for (const op of a.report.operations) {
    const own = a.minutes.filter((m) => m.scope === 'operation' && m.operation === op.operation && m.source === op.source);
    t.is(sum(own.map((m) => m.n)), op.n, op.operation);
    t.is(sum(own.map((m) => m.satisfied)), op.satisfied ?? 0, op.operation);
  }
});

test('a 20 s run draws lock waits, timeouts and deadlocks per bucket, adding up to the lock table and the minute rollup', async (t) => {
  const { page } = short;
  const bucket = page.bucket ?? 60;
  const l = page.locks;
  if (l === undefined) throw new Error('no locks section');
  t.true((page.domain.to - page.domain.from) / bucket >= 10, `${(page.domain.to - page.domain.from) / bucket} buckets`);
  t.true(l.report.per_minute.every((m) => Date.parse(`${m.minute.replace(' ', 'T').replace(/Z?$/, 'Z')}`) / 1000 % bucket === 0));
  const line = lockTimeline(l);
  const drawn = { waits: sum(line.waits.map((p) => p.v)), timeouts: sum(line.timeouts.map((p) => p.v)), deadlocks: sum(line.deadlocks.map((p) => p.v)) };
  t.true(drawn.waits + drawn.timeouts + drawn.deadlocks > 0, 'the demo run has lock trouble to draw');
  t.deepEqual(drawn, { waits: l.counts.tj_lock_waits, timeouts: l.counts.tj_timeouts, deadlocks: l.counts.tj_deadlocks });
  // The raw rows counted by tj_lock_minute_mv's rules give what the rollup holds for the same minutes.
  const minutes = await short.rows('tj-lock-minutes', { limit: 100_000 });
  t.deepEqual(
    { waits: sum(minutes.map((m) => Number(m.waits))), timeouts: sum(minutes.map((m) => Number(m.timeouts))), deadlocks: sum(minutes.map((m) => Number(m.deadlocks))) },
    drawn,
  );
  const waitS = sum(minutes.map((m) => Number(m.total_wait_ms))) / 1000;
  t.true(Math.abs(sum(line.wait_s.map((p) => p.v)) - waitS) < 0.01, `${sum(line.wait_s.map((p) => p.v))} vs ${waitS}`);
});

test('a ten-minute run keeps one point per minute, from the rollups', (t) => {
  const { page } = long;
  t.is(page.bucket, 60);
  t.deepEqual(page.domain, long.window);
  const points = overall(page.apdex?.minutes ?? []);
  t.is(points.length, 6);
  t.true(points.every((p) => p.t % 60 === 0));
  t.deepEqual(page.locks?.report.per_minute.map((m) => m.waits), [2, 1, 1]);
  t.true((page.atop?.cpu.length ?? 0) > 0 && page.atop?.bucket === 60);
});

test('an atop chart is never finer than its samples, and says so when that leaves it fewer than ten points', async (t) => {
  // Twenty seconds of the fixture, around its 10:01:30 atop sample; the samples are a minute apart.
  const from = Date.UTC(2026, 10, 30, 10, 1, 20) / 1000;
  const window = { from, to: from + 20 };
  const page = await collectReportPage(rowsOf(window), ['atop'], { title: 'atop', run: null, window, timeZone: 'UTC', generatedAt: 0 });
  t.is(page.bucket, 2);
  t.like(page.atop, { sampleInterval: 60, bucket: 60 });
  t.deepEqual(page.atop?.cpu.map((m) => m.t), [Date.UTC(2026, 10, 30, 10, 1) / 1000]);
  t.regex(atopSection(page.atop!, page), /atop sampled every 60 s: one point per minute, fewer than 10 in this window\./);
});
