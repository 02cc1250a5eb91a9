// `perfpipe ingest --tj` into the embedded store, as a user runs it, beside its yardstick in the same run: a process
// that only reads, UTF-8-decodes and header-matches the same files (read-decode-ceiling.ts; issue #14's bar is 20 %
// of its MB/s, with a peak RSS under 500 MB). Rounds alternate (ceiling, ingest, …) and medians are kept, so a
// neighbour on a shared machine slows both sides of the ratio alike. Each ingest: bin/perfpipe.js in a child
// process (its shebang carries perfpipe's node flags), a fresh data directory, wall time from spawn to exit, events
// from its summary line, peak RSS (VmHWM from /proc, every engine thread included).
// Usage: npm run build && node dist/bench/tj-ingest.js [--size-mb 200] [--seed 7] [--rounds 3]
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateTj } from './generate-tj.js';
import { benchWorkDir, isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';
import { median, timed } from './process-stats.js';

export async function run(options: { sizeMb?: number; seed?: number; rounds?: number } = {}): Promise<BenchResult> {
  // Seed 7: not the tests' 42, so the input is one the tests never saw.
  const input = generateTj({ sizeMb: options.sizeMb ?? 200, seed: options.seed ?? 7 });
  const files = input.files.map((f) => join(input.dir, f.path));
  const ceiling = join(repoRoot(), 'dist', 'bench', 'read-decode-ceiling.js');
  if (!existsSync(ceiling)) return { bench: 'tj-ingest', input: {}, figures: [], ok: false, notes: ['dist/ is missing: run npm run build first'] };
  const data = join(benchWorkDir(), 'ingest-data');
  const entry = join(repoRoot(), 'bin', 'perfpipe.js');
  const times = { ceiling: [] as number[], ingest: [] as number[] };
  const peaks: number[] = [];
  const notes: string[] = [];
  let ok = true;
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    const ref = await timed(process.execPath, [ceiling, ...files], true);
    ok &&= ref.code === 0;
    times.ceiling.push(ref.s);
    rmSync(data, { recursive: true, force: true });
    const r = await timed(entry, ['ingest', '--tj', input.dir, '--tz', input.time_zone, '--data', data], true);
    const stored = Number(/^ingested (\d+) events/m.exec(r.stdout)?.[1] ?? -1);
    ok &&= r.code === 0 && stored === input.events;
    times.ingest.push(r.s);
    peaks.push(r.peakKiB / 1024);
    notes.push(`round ${round + 1}: ceiling ${ref.s.toFixed(2)} s, ingest ${r.s.toFixed(2)} s, peak RSS ${(r.peakKiB / 1024).toFixed(0)} MiB: ${r.stdout.trim().split('\n').at(-1) ?? ''}`);
  }
  rmSync(data, { recursive: true, force: true });
  const mb = input.bytes / 1e6;
  return {
    bench: 'tj-ingest',
    input: { bytes: input.bytes, events: input.events, files: input.files.length, seed: input.seed },
    figures: [
      { name: 'read + decode + header regex over the same files (reference)', value: mb / median(times.ceiling), unit: 'MB/s' },
      { name: 'ingest --tj into the embedded store (whole process)', value: mb / median(times.ingest), unit: 'MB/s' },
      { name: 'ingest --tj into the embedded store (whole process)', value: input.events / median(times.ingest), unit: 'events/s' },
      { name: 'ingest / reference (bar ≥ 0.2)', value: median(times.ceiling) / median(times.ingest), unit: '×' },
      { name: 'peak RSS of the ingest process, highest round (bar < 500)', value: Math.max(...peaks), unit: 'MiB' },
    ],
    ok,
    notes,
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, seed: { type: 'string' }, rounds: { type: 'string' } } });
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const r = await run({ sizeMb: num(values['size-mb']), seed: num(values.seed), rounds: num(values.rounds) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
  if (!r.ok) process.exitCode = 1;
}
