// `--html FILE` on each report as a user runs it: every report writes only its own sections, a run's page is framed
// by the run, run-compare pairs two runs as `report run-compare --format json` does, and wrong flags say what is wrong.
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { writeFixture } from './report-html-fixture.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-htmlcli-'));
const data = join(work, 'data');
test.after.always(() => rmSync(work, { recursive: true, force: true }));

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`perfpipe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const unescape = (s: string): string => s.replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e] as string);
const sections = (html: string): string[] => [...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1] as string);

test.before(async () => {
  await cli(['ingest', ...writeFixture(work), '--data', data]);
  for (const [name, from, to] of [['base', '10:00', '10:03'], ['cand', '10:03', '10:06']] as const) {
    await cli(['runs', 'start', name, '--at', `2026-11-30T${from}:00Z`, '--data', data]);
    await cli(['runs', 'stop', name, '--at', `2026-11-30T${to}:00Z`, '--data', data]);
  }
});

test.serial('each report writes only its own sections, and a run frames the page', async (t) => {
  for (const [report, expected] of [['apdex', ['apdex']], ['locks', ['locks']], ['pg-locks', ['pg-locks']], ['all', ['apdex', 'locks', 'pg-locks', 'atop']]] as const) {
    const file = join(work, `${report}.html`);
    t.is(await cli(['report', report, '--run', 'base', '--html', file, '--tz', 'Europe/Moscow', '--data', data]), `wrote ${file} (${Math.ceil(readFileSync(file).length / 1024)} KB)\n`);
    t.deepEqual(sections(readFileSync(file, 'utf8')), [...expected], report);
  }
  const html = readFileSync(join(work, 'all.html'), 'utf8');
  t.regex(html, /<dt>Run<\/dt><dd>base<\/dd><dt>Window<\/dt><dd>2026-11-30 13:00 – 13:03 \(3 min\)<\/dd><dt>Times in<\/dt><dd>UTC\+03:00 \(Europe\/Moscow\)<\/dd>/);
  // The run ends at 10:03 UTC: the 10:04 deadlock is outside it, the 10:02 timeout inside.
  t.regex(html, /data-card="tj-timeouts"><div class="label">[^<]*<\/div><div class="value">1</);
  t.regex(html, /data-card="tj-deadlocks"><div class="label">[^<]*<\/div><div class="value">0</);
});

test.serial('run-compare --html pairs the runs per key operation with the values of run-compare --format json', async (t) => {
  const file = join(work, 'compare.html');
  await cli(['report', 'run-compare', 'base', 'cand', '--html', file, '--tz', 'UTC', '--data', data]);
  const html = readFileSync(file, 'utf8');
  // "What changed" says why nothing is compared: neither run recorded PostgreSQL's settings (docs/runs.md).
  t.deepEqual(sections(html), ['compare', 'changes']);
  const bars = [...html.matchAll(/<rect class="bar" data-label="([^"]*)" data-series="([^"]*)" data-v="([^"]*)"/g)].map((m) => [unescape(m[1] as string), unescape(m[2] as string), Number(m[3])]);
  const json = JSON.parse(await cli(['report', 'run-compare', 'base', 'cand', '--format', 'json', '--data', data])) as {
    operations: Array<Record<string, { apdex: number | null }> & { operation: string }>;
  };
  const expected = json.operations.flatMap((o) => (['base', 'cand'] as const).flatMap((run) => (o[run]?.apdex === null || o[run]?.apdex === undefined ? [] : [[o.operation, run, o[run].apdex]])));
  t.deepEqual(bars, expected);
  // base holds minutes 10:00–10:02 of the fixture export, cand 10:03–10:05: both runs have operations.
  t.true(bars.some((b) => b[1] === 'base') && bars.some((b) => b[1] === 'cand'), JSON.stringify(bars));
});

test('wrong flags say what is wrong before the store is opened', async (t) => {
  const cases: Array<[string[], string]> = [
    [['report', 'apdex', '--html', 'x.html', '--format', 'json'], '--html and --format exclude each other: the page is its own format'],
    [['report', 'all'], 'report all: the full report is an HTML page; give --html FILE'],
    [['report', 'all', '--html', 'x.html', '--tz', 'Mars/Olympus'], '--tz: "Mars/Olympus" is not an IANA zone; expected e.g. "Europe/Moscow"'],
    [['report', 'locks', '--tz', 'UTC'], '--tz sets the time zone of the HTML page; give --html FILE too'],
  ];
  for (const [args, message] of cases) {
    const r = await runCli([...args, '--data', join(work, 'never-opened')]);
    t.is(r.code, 2, args.join(' '));
    t.is(r.stderr, `perfpipe: ${message}\n`);
  }
  t.false(existsSync(join(work, 'never-opened')));
});
