// PostgreSQL stderr parse throughput beside pgBadger on the same ≥200 MB file in the same run: a real log (the
// shared corpus's PG 15 phase1 log, or --seed FILE) repeated into bench/work/, parsed here by the pipeline's parser
// (createPgParser + the lock-episode stream, 1 MiB chunks like the tailer) and by `pgbadger -j 1` in one process.
// Usage: npx tsx bench/pg-parse.ts [--size-mb 200] [--seed FILE --prefix '…']
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgParser } from '../parsers/pg/index.js';
import { createPgEpisodeStream } from '../parsers/pg/episode-stream.js';
import { benchWorkDir, isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';

const CHUNK = 1 << 20;
export const CORPUS_SEED = join(repoRoot(), '..', 'shared', 'corpus', 'pg', 'generated', 'postgresql-phase1.log');
export const CORPUS_PREFIX = '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ';

interface Options { sizeMb?: number; seed?: string; prefix?: string }

/** The seed repeated until the file holds sizeMb MB; rebuilt only when missing or of another size. */
export function ensureInput(seed: Buffer, sizeMb: number): { path: string; repeats: number } {
  const repeats = Math.ceil((sizeMb * 1e6) / seed.length);
  const dir = join(benchWorkDir(), `pg-${sizeMb}mb`);
  const path = join(dir, 'postgresql-bench.log');
  if (existsSync(path) && statSync(path).size === seed.length * repeats) return { path, repeats };
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, '');
  const block = Buffer.concat(Array.from({ length: 16 }, () => seed));
  for (let done = 0; done < repeats; done += 16) appendFileSync(path, repeats - done >= 16 ? block : Buffer.concat(Array.from({ length: repeats - done }, () => seed)));
  return { path, repeats };
}

function parseOurs(path: string, prefix: string): { s: number; cpuS: number; events: number; errors: number; acquired: number } {
  const parser = createPgEpisodeStream(createPgParser({ host: 'bench', source: 'pg', file: path, file_key: 'bench', offset: 0, format: 'stderr', prefix }));
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let events = 0;
  let errors = 0;
  let acquired = 0;
  const fd = openSync(path, 'r');
  try {
    for (let position = 0; ;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, position);
      const out = n === 0 ? parser.finish() : parser.push(n === CHUNK ? buf : buf.subarray(0, n));
      events += out.events.length;
      errors += out.errors.length;
      for (const e of out.events) for (const ep of e.lock_episodes) if (ep.outcome === 'acquired') acquired++;
      if (n === 0) break;
      position += n;
    }
  } finally {
    closeSync(fd);
  }
  const cpu = process.cpuUsage(cpu0);
  return { s: Number(process.hrtime.bigint() - t0) / 1e9, cpuS: (cpu.user + cpu.system) / 1e6, events, errors, acquired };
}

/** pgBadger in one process (-j 1), its JSON report; wall time of the whole run (parse + a small report). */
function parsePgBadger(path: string, prefix: string): { s: number; locks: number } | null {
  if (spawnSync('pgbadger', ['--version']).status !== 0) return null;
  const out = join(benchWorkDir(), 'pgbadger-bench.json');
  const t0 = process.hrtime.bigint();
  execFileSync('pgbadger', ['-q', '-j', '1', '-f', 'stderr', '--prefix', prefix, '-o', out, path], { stdio: 'inherit', maxBuffer: 1 << 26 });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const report = JSON.parse(readFileSync(out, 'utf8')) as { lock_info: Record<string, Record<string, { count: number }>> };
  let locks = 0;
  for (const modes of Object.values(report.lock_info)) for (const m of Object.values(modes)) locks += m.count;
  return { s, locks };
}

export async function run(options: Options = {}): Promise<BenchResult> {
  const sizeMb = options.sizeMb ?? 200;
  const seedPath = options.seed ?? CORPUS_SEED;
  const prefix = options.prefix ?? CORPUS_PREFIX;
  if (!existsSync(seedPath)) {
    return { bench: 'pg-parse', input: { seed: seedPath }, figures: [], ok: false, notes: [`no seed log at ${seedPath}: pass --seed FILE --prefix '…'`] };
  }
  const seed = readFileSync(seedPath);
  const seedRun = parseOurs(seedPath, prefix);
  const { path, repeats } = ensureInput(seed, sizeMb);
  const mb = statSync(path).size / 1e6;
  const ours = parseOurs(path, prefix);
  const badger = parsePgBadger(path, prefix);
  const notes: string[] = [];
  // Both must have read the same file: entries = seed × repeats, and pgBadger's lock count = our acquired waits.
  const ok = ours.errors === 0 && ours.events === seedRun.events * repeats && (badger === null || badger.locks === ours.acquired);
  if (ours.events !== seedRun.events * repeats) notes.push(`parsed ${ours.events} entries and ${ours.errors} errors; expected ${seedRun.events} × ${repeats}`);
  if (badger === null) notes.push('pgbadger is not installed: no comparison');
  else notes.push(`acquired lock waits: perfpipe ${ours.acquired}, pgBadger ${badger.locks}`);
  return {
    bench: 'pg-parse',
    input: { bytes: Math.round(mb * 1e6), repeats, seed: seedPath, entries: ours.events, chunk_bytes: CHUNK },
    figures: [
      { name: 'perfpipe throughput (read + parse + episodes)', value: mb / ours.s, unit: 'MB/s' },
      { name: 'perfpipe throughput per CPU second', value: mb / ours.cpuS, unit: 'MB/s' },
      { name: 'perfpipe entries', value: ours.events / ours.s, unit: 'entries/s' },
      ...(badger ? [
        { name: 'pgBadger -j 1 throughput (whole run)', value: mb / badger.s, unit: 'MB/s' },
        { name: 'perfpipe / pgBadger', value: badger.s / ours.s, unit: '×' },
      ] : []),
    ],
    ok,
    notes,
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, seed: { type: 'string' }, prefix: { type: 'string' } } });
  const result = await run({
    sizeMb: Number(values['size-mb'] ?? 200),
    ...(values.seed ? { seed: values.seed } : {}), ...(values.prefix ? { prefix: values.prefix } : {}),
  });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(result)));
  for (const note of result.notes ?? []) console.log(`note: ${note}`);
  if (!result.ok) process.exitCode = 1;
}
