// `perfpipe report runs` as a user runs it: the HTML report's load test (test/report-html-fixture.ts) is ingested,
// four runs are named out of order (one still open), and the history lists them oldest first with the APDEX and
// lock counts worked out by hand from the fixture; the page draws APDEX across the runs with the pass mark, checked
// in a real headless Chromium.
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { MISSING_CHROMIUM, dumpDom, screenshot } from './support/chromium.js';
import { testIf } from './support/prerequisites.js';
import { countColor, readPng } from './support/png.js';
import { writeFixture } from './report-html-fixture.js';
import { COUNT_WEIGHTED, PASS_MARK_COLOR, PRIORITY_WEIGHTED } from '../queries/report-html/sections/runs-section.js';
import { MEANING, seriesColor } from '../queries/report-html/palette.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-runs-'));
const data = join(work, 'data');
test.after.always(() => rmSync(work, { recursive: true, force: true }));

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`perfpipe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const A = 'ПроведениеДокументаЗаказКлиента';
const B = 'ЗаписьСправочникаНоменклатура';
const locks = (tj_lock_waits: number, tj_lock_wait_s: number, tj_timeouts: number, tj_deadlocks: number, pg_lock_waits: number) =>
  ({ tj_lock_waits, tj_lock_wait_s, tj_timeouts, tj_deadlocks, pg_lock_waits });

/**
 * Worked out from the fixture: measurements every 20 s from 10:00:00, A (T 1 s, priority 1) S S S A A A F F,
 * then B (T 0.5 s, priority 2) S S S A F, then C (T 3 s, priority 3) S S S S; TLOCK waits of 1.5, 0.5 and 20 s in
 * 10:01–10:02 with the TTIMEOUT at 10:02:10, the TDEADLOCK at 10:04:36 and a 2 s wait at 10:04:50; PostgreSQL waits
 * ending 10:03:04.5 and 10:06:03. APDEX = (2S + A) / 2N rounded half-up; priority weights wᵢ = 1 − (pᵢ − 1)/Pmax.
 */
const EXPECTED = [
  // Open since 09:58: everything. A 4.5/8 = 0.563, B 3.5/5 = 0.7, C 1; overall 12/17 = 0.706; (0.5625 + 0.7·⅔ + ⅓)/2 = 0.681.
  { name: 'soak', started_at: '2026-11-30T09:58:00.000Z', stopped_at: null, n: 17, apdex: 0.706, apdex_priority_weighted: 0.681, rating: 'Fair', worst_operation: A, worst_apdex: 0.563, ...locks(4, 24, 1, 1, 2) },
  // 10:00–10:03: A's eight and B's first (10:02:40): 5.5/9 = 0.611; (0.5625·1 + 1·½)/1.5 = 0.708.
  { name: 'base', started_at: '2026-11-30T10:00:00.000Z', stopped_at: '2026-11-30T10:03:00.000Z', duration_s: 180, n: 9, apdex: 0.611, apdex_priority_weighted: 0.708, rating: 'Poor', worst_operation: A, worst_apdex: 0.563, ...locks(3, 22, 1, 0, 0) },
  // 10:03–10:06: B's last four 2.5/4 = 0.625 and C's four: 6.5/8 = 0.813; (0.625·⅔ + 1·⅓)/1 = 0.75.
  { name: 'cand', started_at: '2026-11-30T10:03:00.000Z', stopped_at: '2026-11-30T10:06:00.000Z', duration_s: 180, n: 8, apdex: 0.813, apdex_priority_weighted: 0.75, rating: 'Fair', worst_operation: B, worst_apdex: 0.625, ...locks(1, 2, 0, 1, 1) },
  // 10:06–10:10: no APDEX measurement, only the PostgreSQL lock timeout.
  { name: 'late', started_at: '2026-11-30T10:06:00.000Z', stopped_at: '2026-11-30T10:10:00.000Z', duration_s: 240, n: 0, apdex: null, apdex_priority_weighted: null, rating: '', worst_operation: null, worst_apdex: null, ...locks(0, 0, 0, 0, 1) },
];

test.before(async () => {
  await cli(['ingest', ...writeFixture(work), '--data', data]);
  // Named out of order: the history orders by start, not by when a run was named.
  for (const [name, from, to] of [['cand', '10:03', '10:06'], ['base', '10:00', '10:03'], ['late', '10:06', '10:10']] as const) {
    await cli(['runs', 'start', name, '--at', `2026-11-30T${from}:00Z`, '--data', data]);
    await cli(['runs', 'stop', name, '--at', `2026-11-30T${to}:00Z`, '--data', data]);
  }
  await cli(['runs', 'start', 'soak', '--at', '2026-11-30T09:58:00Z', '--data', data]);
});

interface HistoryRow { name: string; duration_s: number; stopped_at: string | null; [k: string]: unknown }

test.serial('report runs lists every run oldest first with its APDEX, worst key operation and lock trouble', async (t) => {
  const doc = JSON.parse(await cli(['report', 'runs', '--format', 'json', '--data', data])) as { runs: HistoryRow[] };
  t.deepEqual(doc.runs.map((r) => r.name), ['soak', 'base', 'cand', 'late']);
  for (const [i, expected] of EXPECTED.entries()) t.like(doc.runs[i], expected, expected.name);
  // The open run ends when the report runs: more than 300 days after 2026-11-30 would be a wrong clock, not a wrong report.
  const soak = doc.runs[0] as HistoryRow;
  t.is(soak.stopped_at, null);
  t.true(soak.duration_s >= 12 * 60, String(soak.duration_s));
  // A run's line is report apdex over its window.
  const apdex = JSON.parse(await cli(['report', 'apdex', '--run', 'cand', '--format', 'json', '--data', data])) as { overall: { count_weighted: { apdex: number }; priority_weighted: { apdex: number } } };
  t.is(doc.runs[2]?.apdex, apdex.overall.count_weighted.apdex);
  t.is(doc.runs[2]?.apdex_priority_weighted, apdex.overall.priority_weighted.apdex);
});

test.serial('the table and csv carry the same runs for people', async (t) => {
  const csv = (await cli(['report', 'runs', '--format', 'csv', '--data', data])).split('\n');
  t.is(csv[0], 'name,started_at,stopped_at,duration_s,n,apdex,apdex_priority_weighted,rating,worst_operation,worst_apdex,tj_lock_waits,tj_lock_wait_s,tj_timeouts,tj_deadlocks,pg_lock_waits,apdex_delta,changes,changes_during');
  t.is(csv[2], `base,2026-11-30T10:00:00.000Z,2026-11-30T10:03:00.000Z,180,9,0.611,0.708,Poor,${A},0.563,3,22,1,0,0,-0.095,[],[]`);
  t.is(csv[4], 'late,2026-11-30T10:06:00.000Z,2026-11-30T10:10:00.000Z,240,0,,,,,,0,0,0,0,1,,[],[]');
  const table = (await cli(['report', 'runs', '--data', data])).split('\n');
  t.regex(table[0] ?? '', /^run\s+started \(UTC\)\s+stopped \(UTC\)\s+APDEX\s+Δ APDEX\s+by priority\s+rating\s+worst operation\s+worst\s+lock waits\s+timeouts\s+deadlocks\s+pg waits\s+changes$/);
  t.regex(table[1] ?? '', /^soak\s+2026-11-30 09:58:00\s+\(running\)\s+0\.706\s+—\s+0\.681\s+Fair\s+ПроведениеДокументаЗаказКлиента\s+0\.563\s+4\s+1\s+1\s+2\s+—$/);
  t.regex(table[3] ?? '', /^cand\s+2026-11-30 10:03:00\s+2026-11-30 10:06:00\s+0\.813\s+0\.202\s+0\.75\s+Fair\s+ЗаписьСправочникаНоменклатура\s+0\.625\s+1\s+0\s+1\s+1\s+—$/);
  t.regex(table[4] ?? '', /^late\s+2026-11-30 10:06:00\s+2026-11-30 10:10:00\s+—\s+—\s+—\s+—\s+—\s+0\s+0\s+0\s+1\s+—$/);
});

test('a store without runs says how to start one, and a window flag is refused', async (t) => {
  const empty = join(work, 'empty');
  t.is(await cli(['report', 'runs', '--data', empty]), 'no runs; start one with perfpipe runs start NAME\n');
  t.is(await cli(['report', 'runs', '--format', 'json', '--data', empty]), '{"runs":[]}\n');
  const windowed = await runCli(['report', 'runs', '--run', 'base', '--data', join(work, 'never-opened')]);
  t.is(windowed.code, 2);
  t.is(windowed.stderr, 'perfpipe: report runs: every run is listed with its own window; --run, --from and --to do not apply\n');
  t.false(existsSync(join(work, 'never-opened')));
});

interface Mark { run: number; v: number; cx: number; cy: number }
interface Probe {
  plot: { x: number; y: number; width: number; height: number };
  series: Array<{ name: string; color: string; marks: Mark[] }>;
  passMark: { v: number; y: number; label: string } | null;
  rows: string[][];
  height: number;
}

/** Runs in the page after load and leaves what Chromium laid out as JSON (base64) in #probe. */
const PROBE = `<script>
const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; };
const f = document.querySelector('figure[data-chart="runs-apdex"]');
const mark = f.querySelector('g.mark');
const out = { plot: box(f.querySelector('.plot-area')),
  series: [...f.querySelectorAll('g.series')].map((g) => ({ name: g.dataset.series, color: g.dataset.color,
    marks: [...g.querySelectorAll('[data-run]')].map((m) => { const b = box(m); return { run: +m.dataset.run, v: +m.dataset.v, cx: b.x + b.width / 2, cy: b.y + b.height / 2 }; }) })),
  passMark: mark && { v: +mark.dataset.v, y: box(mark.querySelector('line')).y + box(mark.querySelector('line')).height / 2, label: mark.querySelector('text').textContent },
  rows: [...document.querySelector('table[data-table="runs"]').tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)),
  height: document.documentElement.scrollHeight };
const pre = document.createElement('pre'); pre.id = 'probe';
pre.textContent = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(out))));
document.body.append(pre);
</script>`;

testIf(MISSING_CHROMIUM, { serial: true })('the page draws APDEX across the runs over the pass mark, as report runs --format json gives it', async (t) => {
  const file = join(work, 'runs.html');
  t.is(await cli(['report', 'runs', '--html', file, '--tz', 'Europe/Moscow', '--data', data]), `wrote ${file} (${Math.ceil(readFileSync(file).length / 1024)} KB)\n`);
  const html = readFileSync(file, 'utf8');
  t.notRegex(html, /<script|<img|<iframe|<link/i);
  t.deepEqual([...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1]), ['runs']);
  writeFileSync(join(work, 'probe.html'), html.replace('</body>', `${PROBE}</body>`));
  const dom = await dumpDom(join(work, 'probe.html'));
  const b64 = /<pre id="probe">([A-Za-z0-9+/=]+)<\/pre>/.exec(dom)?.[1];
  if (b64 === undefined) return t.fail(`the probe left nothing in the page:\n${dom.slice(0, 500)}`);
  const page = JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as Probe;

  // One point per run with APDEX, at its place in the order; the run without APDEX is a gap.
  const points = (name: string) => page.series.find((s) => s.name === name)?.marks.map((m) => [m.run, m.v]);
  t.deepEqual(points(COUNT_WEIGHTED), [[0, 0.706], [1, 0.611], [2, 0.813]]);
  t.deepEqual(points(PRIORITY_WEIGHTED), [[0, 0.681], [1, 0.708], [2, 0.75]]);
  // Where Chromium put them: x the middle of the run's quarter of the plot, y linear from 0 at the bottom to 1 at the top.
  const { plot } = page;
  for (const s of page.series) {
    for (const m of s.marks) {
      t.true(Math.abs(m.cx - (plot.x + ((m.run + 0.5) / 4) * plot.width)) < 1.5, `${s.name} run ${m.run} x`);
      t.true(Math.abs(m.cy - (plot.y + plot.height * (1 - m.v))) < 1.5, `${s.name} run ${m.run} y`);
    }
  }
  t.is(page.passMark?.v, 0.85);
  t.is(page.passMark?.label, 'pass mark 0.85');
  t.true(Math.abs((page.passMark?.y ?? 0) - (plot.y + plot.height * 0.15)) < 1.5, `pass mark at y ${page.passMark?.y}`);
  // The table: times in the reader's zone (Moscow, UTC+3), values below the pass mark, the open run running.
  t.deepEqual(page.rows.map((r) => r.slice(0, 6)), [
    ['soak', '2026-11-30 12:58 – running', '0.706', '0.681', 'Fair', `${A} 0.563`],
    ['base', '2026-11-30 13:00 – 2026-11-30 13:03', '0.611', '0.708', 'Poor', `${A} 0.563`],
    ['cand', '2026-11-30 13:03 – 2026-11-30 13:06', '0.813', '0.75', 'Fair', `${B} 0.625`],
    ['late', '2026-11-30 13:06 – 2026-11-30 13:10', '—', '—', '', '—'],
  ]);
  t.deepEqual(page.rows.map((r) => r.slice(6)), [['4', '1', '1', '2'], ['3', '1', '0', '0'], ['1', '0', '1', '1'], ['0', '0', '0', '1']]);

  // Painted: the pass mark's red runs across the plot at its height, and both series' colours show inside the plot.
  const png = join(work, 'runs.png');
  await screenshot(file, png, 1280, Math.min(page.height, 4000));
  const pixels = readPng(png);
  const y = Math.round(page.passMark?.y ?? 0);
  t.true(countColor(pixels, { x: plot.x, y: y - 1, width: plot.width, height: 3 }, PASS_MARK_COLOR, 12) > plot.width * 0.5);
  // Above it, clear of its label (12 px text on the line), no red: a line drawn at the wrong height would show there.
  t.is(countColor(pixels, { x: plot.x, y: plot.y, width: plot.width, height: y - 20 - plot.y }, PASS_MARK_COLOR, 12), 0);
  t.true(countColor(pixels, plot, MEANING.total, 8) >= 20);
  t.true(countColor(pixels, plot, seriesColor(0), 8) >= 20);
});
