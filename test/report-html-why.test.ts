// The sections of issue #25 in a real headless Chromium: "Top statements", "Errors" and "What changed" on
// `report all --html --run`, and "What changed" on `report run-compare --html`, for a simulated load test (two runs
// with a reload between them and one inside the second). What the browser laid out is checked against
// `perfpipe report sql|errors|run-compare --format json` over the same store.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { MISSING_CHROMIUM, dumpDom, screenshot } from './support/chromium.js';
import { testIf } from './support/prerequisites.js';
import { countColor, readPng } from './support/png.js';
import type { Expected } from '../simulate/load-expected.js';
import type { SqlReport } from '../queries/reports/sql-report.js';
import type { ErrorsReport } from '../queries/reports/errors-report.js';
import type { WhyReport } from '../queries/reports/why-report.js';
import { statementLabel } from '../queries/report-html/sections/sql-section.js';
import { fmt } from '../queries/report-html/html.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-html-why-'));
const data = join(work, 'data');
const out = join(work, 'run');
test.after.always(() => rmSync(work, { recursive: true, force: true }));

interface Rect { x: number; y: number; width: number; height: number }
interface Probe { sections: Array<{ id: string; height: number }>; tables: Record<string, string[][]>; bars: Record<string, Array<{ label: string; v: number; width: number; color: string }>>; plots: Record<string, Rect> }

/** Runs in the page after load; leaves the sections, tables and bars as Chromium laid them out in #probe (base64 JSON). */
const PROBE = `<script>
const rect = (e) => { const r = e.getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; };
const out = {
  sections: [...document.querySelectorAll('section[id]')].map((s) => ({ id: s.id, height: s.getBoundingClientRect().height })),
  tables: Object.fromEntries([...document.querySelectorAll('table[data-table]')].map((t) => [t.dataset.table, [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent))])),
  bars: Object.fromEntries([...document.querySelectorAll('figure[data-chart]')].map((f) => [f.dataset.chart, [...f.querySelectorAll('rect.bar')].map((b) => ({ label: b.dataset.label, v: +b.dataset.v, width: b.getBoundingClientRect().width, color: b.getAttribute('fill') }))])),
  plots: Object.fromEntries([...document.querySelectorAll('figure[data-chart]')].map((f) => [f.dataset.chart, rect(f)])),
};
const pre = document.createElement('pre'); pre.id = 'probe';
pre.textContent = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(out))));
document.body.append(pre);
</script>`;

async function probe(html: string): Promise<Probe> {
  const copy = html.replace(/\.html$/, '.probe.html');
  writeFileSync(copy, readFileSync(html, 'utf8').replace('</body>', `${PROBE}</body>`));
  const b64 = /<pre id="probe">([A-Za-z0-9+/=]+)<\/pre>/.exec(await dumpDom(copy, 1280, 900))?.[1];
  if (b64 === undefined) throw new Error('the probe left nothing in the page');
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as Probe;
}

async function cli(args: string[]): Promise<string> {
  const r = await runCli([...args, '--data', data]);
  if (r.code !== 0) throw new Error(`perfpipe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

let expected: Expected;
let all: Probe;
let compare: Probe;
const allFile = join(work, 'all.html');
const window = (): string[] => ['--from', expected.runs[1]!.from, '--to', expected.runs[1]!.to];

test.before(async () => {
  if (MISSING_CHROMIUM !== null) return;
  const sim = await runCli(['simulate', '--out', out, '--users', '8', '--duration', '150s', '--rate', '120', '--seed', '4', '--conflicts-per-minute', '8']);
  if (sim.code !== 0) throw new Error(sim.stderr);
  expected = JSON.parse(readFileSync(join(out, 'expected.json'), 'utf8')) as Expected;
  await cli(['ingest', '--tj', join(out, 'tj'), '--pg', join(out, 'pg')]);
  for (const r of expected.runs) {
    await cli(['runs', 'start', r.name, '--at', r.from]);
    await cli(['runs', 'stop', r.name, '--at', r.to]);
  }
  await cli(['report', 'all', '--run', 'sim-2', '--html', allFile, '--tz', 'UTC']);
  all = await probe(allFile);
  const compareFile = join(work, 'compare.html');
  await cli(['report', 'run-compare', 'sim-1', 'sim-2', '--html', compareFile, '--tz', 'UTC']);
  compare = await probe(compareFile);
});

const browserTest = testIf(MISSING_CHROMIUM, { serial: true });

browserTest('report all --html for a run has "What changed", "Where the time went", "Top statements" and "Errors", each laid out', (t) => {
  const ids = all.sections.map((s) => s.id);
  for (const id of ['changes', 'why', 'sql', 'errors']) t.true(ids.includes(id), `${id} in ${ids.join(' ')}`);
  t.true(ids.indexOf('why') < ids.indexOf('sql'), ids.join(' '));
  t.true(ids.indexOf('changes') < ids.indexOf('apdex') && ids.indexOf('atop') < ids.indexOf('sql') && ids.indexOf('sql') < ids.indexOf('errors'), ids.join(' '));
  for (const s of all.sections) t.true(s.height > 40, `${s.id} is ${s.height} px high`);
});

browserTest('"Top statements" draws report sql\'s statements as bars, longest first, and lists them all in its table', async (t) => {
  const json = JSON.parse(await cli(['report', 'sql', '--format', 'json', ...window()])) as SqlReport;
  t.true(json.statements.length >= 5);
  const bars = all.bars['sql-top'] ?? [];
  t.deepEqual(bars.map((b) => [b.label, b.v]), json.statements.slice(0, 15).map((s) => [statementLabel(s.sql), s.seconds]));
  for (let i = 1; i < bars.length; i++) t.true(bars[i - 1]!.width >= bars[i]!.width, `bar ${i}`);
  const rows = all.tables['sql-statements'] ?? [];
  t.deepEqual(rows.map((r) => [r[0], r[2]]), json.statements.map((s) => [fmt(s.seconds), fmt(s.count, 0)]));
});

browserTest('"Where the time went" draws report why\'s split of each operation as one stacked bar, and lists the operations most time first', async (t) => {
  const json = JSON.parse(await cli(['report', 'why', '--format', 'json', ...window()])) as WhyReport;
  t.true(json.operations.length >= 3);
  const bars = all.bars['why-split'] ?? [];
  const parts = ['db_seconds', 'lock_wait_seconds', 'cpu_seconds', 'thread_wait_seconds', 'other_seconds'] as const;
  t.deepEqual(bars.map((b) => [b.label, b.v]), json.operations.flatMap((o) => parts.map((p) => [o.operation, o[p]])));
  // One bar per operation: its parts' widths add up in proportion to the operation's time.
  const width = (op: string): number => bars.filter((b) => b.label === op).reduce((a, b) => a + b.width, 0);
  const [first, second] = json.operations;
  t.true(Math.abs(width(first!.operation) / width(second!.operation) - first!.seconds / second!.seconds) < 0.02);
  t.deepEqual((all.tables['why-operations'] ?? []).map((r) => [r[1], r[3]]), json.operations.map((o) => [fmt(o.calls, 0), fmt(o.seconds)]));
});

browserTest('"Errors" lists report errors\' 1C and PostgreSQL groups with their counts', async (t) => {
  const json = JSON.parse(await cli(['report', 'errors', '--format', 'json', ...window()])) as ErrorsReport;
  t.true(json.one_c.length >= 1 && json.postgresql.length >= 1, JSON.stringify(json).slice(0, 300));
  t.deepEqual((all.tables['errors-1c'] ?? []).map((r) => [r[0], r[2]]), json.one_c.map((e) => [fmt(e.count, 0), e.exception]));
  t.deepEqual((all.tables['errors-pg'] ?? []).map((r) => [r[0], r[1], r[3]]), json.postgresql.map((e) => [fmt(e.count, 0), e.severity, e.pattern]));
});

browserTest('"What changed" shows the reload between the runs and the one inside sim-2 with its time', (t) => {
  const between = (all.tables.changes ?? []).map((r) => r.slice(0, 5));
  t.deepEqual(between, expected.settings.filter((c) => c.during === null).map((c) => ['postgresql', c.name, 'not recorded', c.b, c.at.replace('T', ' ').slice(0, 19)])
    .sort((x, y) => (x[1]! < y[1]! ? -1 : 1)));
  const during = (all.tables['changes-during'] ?? []).map((r) => [r[0], r[2], r[4], r[5]]);
  t.deepEqual(during, expected.settings.filter((c) => c.during === 'sim-2').map((c) => [c.during, c.name, c.b, c.at.replace('T', ' ').slice(0, 19)]));
});

browserTest('run-compare --html has "What changed" beside the comparison, with run-compare --format json\'s changes', async (t) => {
  t.deepEqual(compare.sections.map((s) => s.id), ['compare', 'changes']);
  const json = JSON.parse(await cli(['report', 'run-compare', 'sim-1', 'sim-2', '--format', 'json'])) as { changes: Array<{ name: string; b: string }> };
  t.deepEqual((compare.tables.changes ?? []).map((r) => [r[1], r[3]]), json.changes.map((c) => [c.name, c.b]));
});

browserTest('in a screenshot the statement bars are painted in their colour inside their chart', async (t) => {
  const png = join(work, 'all.png');
  const plot = all.plots['sql-top'] as Rect;
  await screenshot(allFile, png, 1280, Math.min(16_000, Math.ceil(plot.y + plot.height + 50)));
  const color = all.bars['sql-top']?.[0]?.color ?? '';
  t.true(countColor(readPng(png), plot, color, 6) > 200, color);
});
