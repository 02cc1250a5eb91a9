// `perfpipe report all --html FILE` as a user runs it, opened in a real headless Chromium: a load test with known
// answers (test/report-html-fixture.ts) is ingested, the page is rendered, and what the browser laid out and
// painted is checked against those answers and against `perfpipe report … --format json` over the same store.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { MISSING_CHROMIUM, dumpDom, screenshot } from './support/chromium.js';
import { testIf } from './support/prerequisites.js';
import { countColor, readPng } from './support/png.js';
import { EXPECT, HOLDER, INJECT, WRITE, writeFixture } from './report-html-fixture.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-html-'));
const data = join(work, 'data');
const WINDOW = ['--from', '2026-11-30T10:00:00Z', '--to', '2026-11-30T10:10:00Z'];
const DOMAIN = { from: Date.UTC(2026, 10, 30, 10, 0) / 1000, to: Date.UTC(2026, 10, 30, 10, 10) / 1000 };
test.after.always(() => rmSync(work, { recursive: true, force: true }));

interface Rect { x: number; y: number; width: number; height: number }
interface Mark { t: number; v: number; cx: number; cy: number; top: number; height: number }
interface Series { name: string; color: string; marks: Mark[] }
interface Bar { label: string; series: string; v: number; width: number }
interface Chart { id: string; empty: boolean; kind: string; plot: Rect | null; legend: string[]; series: Series[]; bars: Bar[] }
interface Probe { scripts: number; images: number; iframes: number; title: string; meta: string; cards: Record<string, string>; charts: Chart[]; tables: Record<string, string[][]>; text: string; height: number }

/** Runs in the page after load and leaves what Chromium laid out as JSON (base64, so no escaping question) in #probe. */
const PROBE = `<script id="probe-script">
const rect = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; };
const charts = [...document.querySelectorAll('figure.chart')].map((f) => ({
  id: f.dataset.chart, empty: f.dataset.empty === 'true', kind: f.dataset.kind || '', plot: rect(f.querySelector('.plot-area')),
  legend: [...f.querySelectorAll('.legend li')].map((li) => li.textContent),
  series: [...f.querySelectorAll('g.series')].map((g) => ({ name: g.dataset.series, color: g.dataset.color,
    marks: [...g.querySelectorAll('[data-t]')].map((m) => { const r = rect(m); return { t: +m.dataset.t, v: +m.dataset.v, cx: r.x + r.width / 2, cy: r.y + r.height / 2, top: r.y, height: r.height }; }) })),
  bars: [...f.querySelectorAll('rect.bar[data-label]')].map((b) => ({ label: b.dataset.label, series: b.dataset.series, v: +b.dataset.v, width: b.getBoundingClientRect().width })),
}));
const tables = Object.fromEntries([...document.querySelectorAll('table[data-table]')].map((t) => [t.dataset.table, [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent))]));
const cards = Object.fromEntries([...document.querySelectorAll('[data-card]')].map((c) => [c.dataset.card, c.querySelector('.value').textContent]));
const out = { scripts: document.scripts.length - 1, images: document.images.length, iframes: document.querySelectorAll('iframe, object, embed').length,
  title: document.title, meta: document.querySelector('dl.meta').textContent, cards, charts, tables, text: document.body.innerText, height: document.documentElement.scrollHeight };
const pre = document.createElement('pre'); pre.id = 'probe';
pre.textContent = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(out))));
document.body.append(pre);
</script>`;

async function probe(html: string): Promise<Probe> {
  const copy = html.replace(/\.html$/, '.probe.html');
  writeFileSync(copy, readFileSync(html, 'utf8').replace('</body>', `${PROBE}</body>`));
  const dom = await dumpDom(copy, 1280, 900);
  const b64 = /<pre id="probe">([A-Za-z0-9+/=]+)<\/pre>/.exec(dom)?.[1];
  if (b64 === undefined) throw new Error(`the probe left nothing in the page:\n${dom.slice(0, 500)}`);
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as Probe;
}

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`perfpipe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

let page: Probe;
let pageFile: string;

test.before(async () => {
  if (MISSING_CHROMIUM !== null) return;
  const flags = writeFixture(work);
  await cli(['ingest', ...flags, '--data', data]);
  pageFile = join(work, 'out', 'report.html');
  const wrote = await cli(['report', 'all', '--html', pageFile, '--tz', 'UTC', '--data', data, ...WINDOW]);
  if (!wrote.startsWith(`wrote ${pageFile} (`)) throw new Error(`unexpected output: ${wrote}`);
  page = await probe(pageFile);
});

const chart = (id: string): Chart => {
  const c = page.charts.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no chart ${id}; charts: ${page.charts.map((x) => x.id).join(', ')}`);
  return c;
};
const values = (s: Series | undefined): Map<number, number> => new Map((s?.marks ?? []).map((m) => [m.t, m.v]));
const browserTest = testIf(MISSING_CHROMIUM, { serial: true });

browserTest('the page is one self-contained file: no script, image, frame or outside reference, and Chromium draws it', (t) => {
  const html = readFileSync(pageFile, 'utf8');
  t.notRegex(html, /<script|<img|<iframe|<link|@import|url\(/i);
  // The only URL is the SVG namespace, which names and fetches nothing.
  t.deepEqual([...new Set(html.match(/https?:\/\/[^\s"'<>]+/g))], ['http://www.w3.org/2000/svg']);
  t.is(page.scripts, 0);
  t.is(page.images, 0);
  t.is(page.iframes, 0);
  t.is(page.title, 'Load test report');
  t.true(page.meta.startsWith('Window2026-11-30 10:00 – 10:10 (10 min)Times inUTCGenerated'), page.meta);
  t.deepEqual(page.charts.map((c) => c.id), ['apdex-minutes', 'lock-events', 'lock-wait-time', 'lock-spaces', 'lock-contexts', 'pg-lock-waits', 'pg-lock-wait-time', 'atop-cpu', 'atop-disks']);
  t.like(page.cards, { 'apdex-overall': '0.706', 'apdex-priority': '0.681', 'apdex-worst': '0.563', 'tj-lock-waits': '4', 'tj-timeouts': '1', 'tj-deadlocks': '1', 'pg-lock-waits': '2', 'cpu-peak': '50 %' });
});

browserTest('the APDEX chart has one line per key operation and the overall, each point equal to report apdex over its minute', async (t) => {
  const c = chart('apdex-minutes');
  t.deepEqual(c.series.map((s) => s.name), ['ПроведениеДокументаЗаказКлиента', 'ЗаписьСправочникаНоменклатура', 'ФормированиеОтчетаОстатки', 'All operations (count-weighted)']);
  t.deepEqual(c.legend, c.series.map((s) => s.name));
  for (const [op, expected] of EXPECT.apdex) t.deepEqual(values(c.series.find((s) => s.name === op)), expected, op);
  const overall = c.series.find((s) => s.name === 'All operations (count-weighted)');
  t.is(overall?.marks.length, 6);
  // Each minute's points against the text report over that one minute (apdex.sql counts every minute the window overlaps).
  for (const m of overall?.marks ?? []) {
    const json = JSON.parse(await cli(['report', 'apdex', '--format', 'json', '--data', data, '--from', String(m.t), '--to', String(m.t + 60)])) as {
      operations: Array<{ operation: string; apdex: number }>; overall: { count_weighted: { apdex: number } };
    };
    t.is(m.v, json.overall.count_weighted.apdex, `overall at ${m.t}`);
    for (const o of json.operations) t.is(values(c.series.find((s) => s.name === o.operation)).get(m.t), o.apdex, `${o.operation} at ${m.t}`);
  }
  // Where Chromium put the points: y is linear in APDEX from 0 at the bottom to 1 at the top, x the middle of the minute.
  const plot = c.plot as Rect;
  for (const s of c.series) {
    for (const m of s.marks) {
      t.true(Math.abs(m.cy - (plot.y + plot.height * (1 - m.v))) < 1.5, `${s.name} ${m.t} y`);
      t.true(Math.abs(m.cx - (plot.x + ((m.t + 30 - DOMAIN.from) / (DOMAIN.to - DOMAIN.from)) * plot.width)) < 1.5, `${s.name} ${m.t} x`);
    }
  }
});

browserTest('the lock charts count waits, timeouts and deadlocks per minute and rank lock spaces as report locks does', async (t) => {
  const events = chart('lock-events');
  t.deepEqual(events.series.map((s) => [s.name, values(s)]), [
    ['TLOCK waits', EXPECT.lockWaits], ['TTIMEOUT (lock timeouts)', EXPECT.lockTimeouts], ['TDEADLOCK (deadlocks)', EXPECT.lockDeadlocks],
  ]);
  const time = chart('lock-wait-time');
  t.deepEqual(values(time.series[0]), EXPECT.lockWaitS);
  // Bars share one scale: height per second is the same for every bar.
  const perUnit = (time.series[0]?.marks ?? []).map((m) => m.height / m.v);
  t.true(Math.max(...perUnit) - Math.min(...perUnit) < 0.1, perUnit.join(' '));
  const spaces = chart('lock-spaces');
  t.deepEqual(spaces.bars.map((b) => [b.label, b.v]), EXPECT.spaces);
  t.true((spaces.bars[0]?.width ?? 0) > (spaces.bars[1]?.width ?? 0) && (spaces.bars[1]?.width ?? 0) > (spaces.bars[2]?.width ?? 0));
  const json = JSON.parse(await cli(['report', 'locks', '--format', 'json', '--data', data, ...WINDOW])) as {
    top_regions: Array<{ region: string; infobase: string; total_wait_ms: number }>; timeouts: unknown[]; deadlocks: unknown[];
  };
  t.deepEqual(spaces.bars.map((b) => [b.label, b.v]), json.top_regions.map((r) => [`${r.region} · ${r.infobase}`, r.total_wait_ms / 1000]));
  t.is(page.tables['lock-timeouts']?.length, json.timeouts.length);
  t.is(page.tables.deadlocks?.length, json.deadlocks.length);
});

browserTest('a lock timeout is listed with its culprit, and contexts with <, &, quotes and markup show as text', (t) => {
  const [row] = page.tables['lock-timeouts'] ?? [];
  t.deepEqual(row?.slice(0, 4), ['2026-11-30 10:02:10.000', 'erp', '19 Петров', WRITE]);
  t.true(row?.[4]?.startsWith(`18 Сидоров: ${HOLDER}`), row?.[4]);
  const [deadlock] = page.tables.deadlocks ?? [];
  t.regex(deadlock?.[4] ?? '', /17 → 18: Reference10\.REFLOCK Exclusive ID=10:9d31.*18 → 17: Reference10\.REFLOCK Exclusive ID=10:95aa/s);
  t.deepEqual(chart('lock-contexts').bars.map((b) => b.label), [WRITE, 'Документ.Провести', INJECT]);
  t.true(page.text.includes(WRITE));
  // The injected markup stayed text: no element came of it.
  t.is(page.scripts, 0);
  t.is(page.images, 0);
});

browserTest('the PostgreSQL chart stacks waits by outcome and the longest wait leads the table', (t) => {
  const c = chart('pg-lock-waits');
  t.deepEqual(c.series.map((s) => [s.name, values(s)]), [
    ['acquired', EXPECT.pgAcquired], ['lock_timeout', EXPECT.pgTimeouts], ['deadlock', new Map()], ['other (cancelled, statement_timeout, …)', new Map()],
  ]);
  t.deepEqual((page.tables['pg-longest-waits'] ?? []).map((r) => [r[1], r[2]]), [['3.5', 'acquired'], ['3', 'lock_timeout']]);
});

browserTest('atop CPU and disk busy are drawn per minute as atop measured them', (t) => {
  const cpu = chart('atop-cpu');
  t.deepEqual(cpu.series.map((s) => s.name), ['db1']);
  t.deepEqual(values(cpu.series[0]), EXPECT.cpuBusy);
  const disks = chart('atop-disks');
  t.deepEqual(disks.series.map((s) => s.name), ['db1: vda']);
  t.deepEqual(values(disks.series[0]), EXPECT.diskBusy);
});

browserTest('in a screenshot every chart shows its series colours inside its plot, and no colour of an empty series', async (t) => {
  const png = join(work, 'page.png');
  await screenshot(pageFile, png, 1280, Math.min(page.height, 16_000));
  const pixels = readPng(png);
  t.is(pixels.width, 1280);
  for (const c of page.charts.filter((x) => x.plot !== null)) {
    const plot = c.plot as Rect;
    for (const s of c.series) {
      const n = countColor(pixels, plot, s.color, 6);
      if (s.marks.length > 0) t.true(n >= 20, `${c.id} / ${s.name}: ${n} pixels of ${s.color}`);
    }
  }
  // A colour check that can fail: the PostgreSQL chart has no deadlock, so none of its red is painted there.
  const pg = chart('pg-lock-waits');
  const red = pg.series.find((s) => s.name === 'deadlock')?.color ?? '';
  t.is(countColor(pixels, pg.plot as Rect, red, 6), 0);
  t.true(countColor(pixels, chart('lock-events').plot as Rect, red, 6) > 100);
});
