// Output for people (issue #15): `perfpipe demo` keeps its progress line whole and shows the alerts that fired in a
// section of their own, on a terminal and piped; `ingest` on a terminal prints no routine start-up lines.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArgs, repoRoot, runCli, type CliResult } from './support/cli.js';
import { dumpDom, MISSING_CHROMIUM } from './support/chromium.js';
import { testIf } from './support/prerequisites.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-demo-output-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

/** Runs the CLI on a pseudo-terminal (util-linux `script`), so stdout and stderr are TTYs; returns what the terminal got. */
function onTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; screen: string }> {
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, ...cliArgs, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => { screen += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { screen += d.toString(); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

/** The demo's "Alerts fired" section: from its title to the next blank line. */
const alertsSection = (text: string): string => /Alerts fired during the run[^\n]*\n([\s\S]*?)\n\n/.exec(text)?.[1] ?? '';

const ALERT_ENTRY = /^ {2}\d\d:\d\d:\d\d {2}OneCDeadlock \(critical, \d+ events?\) {2}\w+, lock space \S+\n {12}(latest )?victim .+ \(connection \d+\) · culprit .+ \(connection \d+\)$/m;

let piped: Promise<CliResult> | undefined;
/** One piped demo run, shared by the tests that read its output and its report.html. */
const pipedDemo = (): Promise<CliResult> => (piped ??= runCli(['demo', '--dir', join(work, 'piped'), '--seconds', '10']));

test('piped, the demo report holds its alerts in their own section and no log line', async (t) => {
  const r = await pipedDemo();
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  t.false(r.stdout.includes('{"level"'), r.stdout);
  t.false(/alert (firing|resolved)/.test(r.stdout), r.stdout);
  t.regex(alertsSection(r.stdout), ALERT_ENTRY, r.stdout);
});

// Each badge as Chromium laid it out: a word broken over two lines has two line boxes and twice the height.
const BADGES = `<script>
const b = [...document.querySelectorAll('.rating')].map((e) => { const r = document.createRange(); r.selectNodeContents(e);
  return { text: e.textContent, lines: r.getClientRects().length, height: e.getBoundingClientRect().height }; });
const pre = document.createElement('pre'); pre.id = 'badges'; pre.textContent = JSON.stringify(b); document.body.append(pre);
</script>`;

testIf(MISSING_CHROMIUM)('in the demo\'s HTML report at 1400 px wide, no rating badge wraps (an "Excellent" broke in two)', async (t) => {
  t.is((await pipedDemo()).code, 0);
  const page = join(work, 'piped', 'report.html');
  const probe = join(work, 'piped', 'badges.html');
  writeFileSync(probe, readFileSync(page, 'utf8').replace('</body>', `${BADGES}</body>`));
  const json = /<pre id="badges">(.*?)<\/pre>/.exec(await dumpDom(probe, 1400, 900))?.[1] ?? '[]';
  const badges = JSON.parse(json.replaceAll('&quot;', '"')) as Array<{ text: string; lines: number; height: number }>;
  t.true(badges.length > 0, 'the report holds rating badges');
  const oneLine = Math.min(...badges.map((b) => b.height));
  for (const b of badges) t.true(b.lines === 1 && b.height < oneLine + 1, `${b.text}: ${b.lines} lines, ${b.height} px high`);
});

test('on a terminal, the demo progress line holds nothing but progress and the alerts come after it', async (t) => {
  const r = await onTerminal(['demo', '--dir', join(work, 'tty'), '--seconds', '10'], { PERFPIPE_LOG_LEVEL: 'warn' });
  t.is(r.code, 0, r.screen);
  const progress = r.screen.slice(r.screen.indexOf('simulated live.'), r.screen.indexOf('  done: written'));
  const pieces = progress.split(/\r\n?|\n/).map((p) => p.trim()).filter((p) => p !== '' && p !== 'simulated live.');
  t.true(pieces.length > 0, r.screen);
  for (const p of pieces) t.regex(p, /^(technological journal → .*|\d+ s {2}written \d+ events, stored \d+)$/, JSON.stringify(p));
  t.regex(alertsSection(r.screen.replace(/\r\n/g, '\n')), ALERT_ENTRY, r.screen);
});

test('ingest on a terminal prints its progress and summary, not the schema migrations it applied', async (t) => {
  const dir = join(work, 'tj', 'rphost_1');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '26113014.log'), '09:45.500001-1,CONN,0,process=rphost\n');
  const r = await onTerminal(['ingest', '--tj', join(work, 'tj'), '--tz', 'UTC', '--data', join(work, 'ingest-data')], { PERFPIPE_LOG_LEVEL: 'info' });
  t.is(r.code, 0, r.screen);
  t.regex(r.screen, /ingested 1 events and 0 ingest errors from 1 files/);
  t.false(/migration|retention|001_tj_events/.test(r.screen), r.screen);
});
