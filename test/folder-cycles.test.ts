// The layering check (#17) fails on a folder cycle: dependency-cruiser with the repository's own rules
// (.dependency-cruiser.cjs) on two folders that import each other through different files, by type-only imports,
// exits non-zero and names the rule, though no file imports itself back. The same folders without the back edge pass,
// and so does the product code (`npm run check:layers`, which .ci/run runs before the tests).
import test from 'ava';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './support/cli.js';

const depcruise = join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Run { code: number; output: string }

function run(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      // The reporter colours its output when it thinks it writes to a terminal; the escapes would split the arrow line.
      resolve({ code, output: (stdout + stderr).replace(/\u001b\[[0-9;]*m/g, '') });
    });
  });
}

/** lower/ and upper/ in a fresh directory with the repository's rules; `backEdge` adds upper → lower. */
function fixture(backEdge: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-folder-cycles-'));
  copyFileSync(join(repoRoot, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  mkdirSync(join(dir, 'lower'));
  mkdirSync(join(dir, 'upper'));
  writeFileSync(join(dir, 'lower', 'event.ts'), "import type { Report } from '../upper/report.js';\nexport type Event = { report?: Report };\n");
  writeFileSync(join(dir, 'lower', 'row.ts'), 'export type Row = { id: number };\n');
  writeFileSync(join(dir, 'upper', 'report.ts'), 'export type Report = { title: string };\n');
  writeFileSync(join(dir, 'upper', 'page.ts'), backEdge
    ? "import type { Row } from '../lower/row.js';\nexport type Page = { rows: Row[] };\n"
    : 'export type Page = { rows: number[] };\n');
  return dir;
}

test('two folders importing each other through different files fail the check, type-only imports included', async (t) => {
  const dir = fixture(true);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(process.execPath, [depcruise, '--config', '.dependency-cruiser.cjs', 'lower', 'upper'], dir);
  t.not(r.code, 0, r.output);
  t.regex(r.output, /no-folder-cycle/);
});

test('the same folders with the dependency one way pass', async (t) => {
  const dir = fixture(false);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(process.execPath, [depcruise, '--config', '.dependency-cruiser.cjs', 'lower', 'upper'], dir);
  t.is(r.code, 0, r.output);
  t.regex(r.output, /no dependency violations found \(4 modules, 1 dependencies/);
});

/** The repository's real top-level folders in a fresh directory: `queries/report.ts` and `cli/format.ts`; `reversed`
 * makes the analytics layer import the command line above it. */
function topLevelFixture(reversed: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-layer-order-'));
  copyFileSync(join(repoRoot, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  mkdirSync(join(dir, 'queries'));
  mkdirSync(join(dir, 'cli'));
  writeFileSync(join(dir, 'cli', 'format.ts'), reversed
    ? 'export const WIDTH = 80;\n'
    : "import type { Report } from '../queries/report.js';\nexport const title = (r: Report): string => r.title;\n");
  writeFileSync(join(dir, 'queries', 'report.ts'), reversed
    ? "import { WIDTH } from '../cli/format.js';\nexport type Report = { title: string };\nexport const width = WIDTH;\n"
    : 'export type Report = { title: string };\n');
  return dir;
}

test('an import from a lower top-level folder to a higher one fails the check and names the layer', async (t) => {
  const dir = topLevelFixture(true);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(process.execPath, [depcruise, '--config', '.dependency-cruiser.cjs', 'queries', 'cli'], dir);
  t.not(r.code, 0, r.output);
  t.regex(r.output, /layer-analytics/);
  t.regex(r.output, /queries\/report\.ts[^\n]*cli\/format\.ts/);
});

test('the same import the right way round (cli/ reads queries/) passes', async (t) => {
  const dir = topLevelFixture(false);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(process.execPath, [depcruise, '--config', '.dependency-cruiser.cjs', 'queries', 'cli'], dir);
  t.is(r.code, 0, r.output);
  t.regex(r.output, /no dependency violations found \(2 modules, 1 dependencies/);
});

test('the product code has no folder cycle (npm run check:layers)', async (t) => {
  const r = await run('npm', ['run', '--silent', 'check:layers'], repoRoot);
  t.is(r.code, 0, r.output);
});
