// `perfpipe parse` as whole processes (start-up, reading, writing NDJSON to /dev/null), each beside its yardstick in
// the same run (issue #11): `parse tj` against a process that only reads, UTF-8-decodes and header-matches the same
// journal (read-decode-ceiling.ts; the bar is half its rate), `parse pg` against pgBadger on the same log (the bar is
// 10×), and `parse atop` on its own. Runs alternate (reference, tj, pg, pgBadger, atop, …) and medians are kept (for
// pg, the median of each round's pgBadger / perfpipe), so a neighbour
// on a shared machine slows both sides of a ratio alike.
// Usage: npm run build && node dist/bench/parse-cli.js [--tj-mb 200] [--seed 7] [--pg-mb 100] [--atop-mb 50] [--rounds 3]
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchWorkDir, isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, type Figure, figureRows, formatTable } from './figures.js';
import { median, timed, type TimedRun } from './process-stats.js';
import { generateTj } from './generate-tj.js';
import { CORPUS_PREFIX, CORPUS_SEED, ensureInput as ensurePgInput } from './pg-parse.js';

export interface ParseCliOptions {
  tjSizeMb?: number;
  /** Seed of the generated journal; not 42, which the tests use. */
  seed?: number;
  pgSizeMb?: number;
  atopSizeMb?: number;
  rounds?: number;
  /** Rounds that also run pgBadger, right after `parse pg` (about 30 s per 100 MB each); default every round. */
  pgbadgerRounds?: number;
}

type Run = TimedRun;

const ATOP_SEED = join(repoRoot(), '..', 'shared', 'corpus', 'atop', 'atop-2.10.0-P-ALL.txt');



/** The corpus atop -P text repeated to `sizeMb` MB (whole copies; each starts with its RESET sample). */
function ensureAtopInput(sizeMb: number): string {
  const seed = readFileSync(ATOP_SEED);
  const repeats = Math.ceil((sizeMb * 1e6) / seed.length);
  const path = join(benchWorkDir(), `atop-${sizeMb}mb`, 'atop.txt');
  if (existsSync(path) && statSync(path).size === seed.length * repeats) return path;
  mkdirSync(join(benchWorkDir(), `atop-${sizeMb}mb`), { recursive: true });
  writeFileSync(path, Buffer.concat(Array.from({ length: repeats }, () => seed)));
  return path;
}

export async function run(options: ParseCliOptions = {}): Promise<BenchResult> {
  const tjSizeMb = options.tjSizeMb ?? 200;
  const rounds = options.rounds ?? 3;
  const dist = join(repoRoot(), 'dist');
  // What a user runs: bin/perfpipe.js, with the node flags on its shebang line (the young generation's size among
  // them changes `parse pg`'s speed by a quarter), over the compiled entry.
  const cli = join(repoRoot(), 'bin', 'perfpipe.js');
  const entry = join(dist, 'cli', 'entry.js');
  const ceiling = join(dist, 'bench', 'read-decode-ceiling.js');
  if (!existsSync(entry) || !existsSync(ceiling)) {
    return { bench: 'parse-cli', input: {}, figures: [], ok: false, notes: ['dist/ is missing: run npm run build first'] };
  }
  // Generated in a child process, like bench/tj-parse.ts: this process stays small.
  await timed(process.execPath, [join(dist, 'bench', 'generate-tj.js'), '--size-mb', String(tjSizeMb), '--seed', String(options.seed ?? 7)]);
  const tj = generateTj({ sizeMb: tjSizeMb, seed: options.seed ?? 7 });
  const tjFile = tj.files[0];
  if (tj.files.length !== 1 || tjFile === undefined) throw new Error('expected one generated TJ file');
  const tjPath = join(tj.dir, tjFile.path);
  const pg = existsSync(CORPUS_SEED) ? ensurePgInput(readFileSync(CORPUS_SEED), options.pgSizeMb ?? 100).path : null;
  const atop = existsSync(ATOP_SEED) ? ensureAtopInput(options.atopSizeMb ?? 50) : null;
  const notes: string[] = [];
  let ok = true;
  const check = (what: string, r: Run): void => {
    if (r.code === 0 && r.stderr === '') return;
    ok = false;
    notes.push(`${what} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
  };

  const times = { ceiling: [] as number[], tj: [] as number[], pg: [] as number[], pgFound: [] as number[], atop: [] as number[], badger: [] as number[], badgerJ: [] as number[] };
  // `parse pg` of a stderr log this large runs on up to four threads (cli/ndjson/pg-pieces.ts): pgBadger with
  // as many processes is the second reference, beside its default -j 1 (the bar's).
  const jobs = Math.min(availableParallelism(), 4);
  const pgRatiosJ: number[] = [];
  let headers = 0;
  // The invocation of bench/pg-parse.ts: one process (-j 1), JSON report.
  const badgerOut = join(benchWorkDir(), 'pgbadger-parse-cli.json');
  let badgerOk = true;
  const pgRatios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const ref = await timed(process.execPath, [ceiling, tjPath], true);
    check('read-decode-ceiling', ref);
    // Lines inside quoted values can look like headers too: a few more than the events (a sanity figure).
    if (ref.code === 0) headers = (JSON.parse(ref.stdout) as { headers: number }).headers;
    times.ceiling.push(ref.s);
    const parsed = await timed(cli, ['parse', 'tj', tjPath, '--tz', tj.time_zone]);
    check('parse tj', parsed);
    times.tj.push(parsed.s);
    if (pg !== null) {
      const r = await timed(cli, ['parse', 'pg', pg, '--pg-prefix', CORPUS_PREFIX]);
      check('parse pg', r);
      times.pg.push(r.s);
      // The same log with no prefix given: found from its first lines (issue 30), which must cost next to nothing.
      const found = await timed(cli, ['parse', 'pg', pg]);
      check('parse pg (prefix found)', found);
      times.pgFound.push(found.s);
      // pgBadger right after, in the same round: the machine's speed drifts over a run (a single pgBadger run after
      // all rounds once made the ratio 7.4× against 9.6-12.5× in the runs before and after), so the figure is the
      // median of each round's own ratio.
      if (badgerOk && round < (options.pgbadgerRounds ?? rounds)) {
        const b = await timed('pgbadger', ['-q', '-j', '1', '-f', 'stderr', '--prefix', CORPUS_PREFIX, '-o', badgerOut, pg]).catch(() => null);
        if (b === null || b.code !== 0) { notes.push('pgbadger did not run: no comparison for parse pg'); badgerOk = false; } else {
          times.badger.push(b.s);
          pgRatios.push(b.s / r.s);
          const j = await timed('pgbadger', ['-q', '-j', String(jobs), '-f', 'stderr', '--prefix', CORPUS_PREFIX, '-o', badgerOut, pg]).catch(() => null);
          if (j !== null && j.code === 0) {
            times.badgerJ.push(j.s);
            pgRatiosJ.push(j.s / r.s);
          }
        }
      }
    }
    if (atop !== null) {
      const r = await timed(cli, ['parse', 'atop', atop]);
      check('parse atop', r);
      times.atop.push(r.s);
    }
  }

  const mb = (path: string): number => statSync(path).size / 1e6;
  const rate = (path: string, s: number[]): number => mb(path) / median(s);
  const figures: Figure[] = [
    { name: 'read + decode + header regex (reference)', value: rate(tjPath, times.ceiling), unit: 'MB/s' },
    { name: 'parse tj > /dev/null', value: rate(tjPath, times.tj), unit: 'MB/s' },
    { name: 'parse tj / reference (bar ≥ 0.5)', value: median(times.ceiling) / median(times.tj), unit: '×' },
  ];
  if (pg !== null) {
    figures.push({ name: 'parse pg > /dev/null', value: rate(pg, times.pg), unit: 'MB/s' });
    figures.push({ name: 'parse pg, prefix found / prefix given (time)', value: median(times.pgFound) / median(times.pg), unit: '×' });
    if (times.badger.length > 0) {
      figures.push({ name: 'pgBadger -j 1', value: rate(pg, times.badger), unit: 'MB/s' });
      figures.push({ name: 'parse pg / pgBadger (bar ≥ 10; median of the rounds\' ratios)', value: median(pgRatios), unit: '×' });
    }
    if (times.badgerJ.length > 0) {
      figures.push({ name: `pgBadger -j ${jobs} (as many processes as parse pg's threads)`, value: rate(pg, times.badgerJ), unit: 'MB/s' });
      figures.push({ name: `parse pg / pgBadger -j ${jobs}`, value: median(pgRatiosJ), unit: '×' });
    }
  }
  if (atop !== null) figures.push({ name: 'parse atop > /dev/null', value: rate(atop, times.atop), unit: 'MB/s' });
  notes.push(`seconds per round: ${JSON.stringify(times)}`);
  return {
    bench: 'parse-cli',
    input: {
      tj_bytes: tjFile.bytes, tj_events: tj.events, reference_headers: headers, seed: tj.seed, pg_bytes: pg === null ? 0 : statSync(pg).size,
      atop_bytes: atop === null ? 0 : statSync(atop).size, rounds,
    },
    figures,
    ok,
    notes,
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      'tj-mb': { type: 'string' }, seed: { type: 'string' }, 'pg-mb': { type: 'string' }, 'atop-mb': { type: 'string' },
      rounds: { type: 'string' }, 'pgbadger-rounds': { type: 'string' },
    },
  });
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const result = await run({
    tjSizeMb: num(values['tj-mb']), seed: num(values.seed), pgSizeMb: num(values['pg-mb']), atopSizeMb: num(values['atop-mb']),
    rounds: num(values.rounds), pgbadgerRounds: num(values['pgbadger-rounds']),
  });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(result)));
  for (const note of result.notes ?? []) console.log(`note: ${note}`);
  console.log(JSON.stringify(result));
  if (!result.ok) process.exitCode = 1;
}
