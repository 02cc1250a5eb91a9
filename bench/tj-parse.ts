// TJ parse throughput: createTjParser over the generated ≥200 MB file, fed 1 MiB chunks as the tailer reads them,
// in this one process. Prints a table; `run()` returns the figures for bench/run.ts.
// Usage: npx tsx bench/tj-parse.ts [--size-mb 200] [--passes 3]   (or node dist/bench/tj-parse.js after tsc)
import { fork } from 'node:child_process';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CHUNK, feedTjFile } from './tj-feed.js';
import { generateTj, type GeneratedTj } from './generate-tj.js';
import { isMain } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';

/**
 * Makes sure the input exists. Writing it happens in a child process so that this process's peak RSS
 * (`maxRSS` is a whole-life peak) measures parsing, not generating.
 */
async function ensureInput(sizeMb: number): Promise<GeneratedTj> {
  const self = fileURLToPath(import.meta.url);
  const script = join(self, '..', `generate-tj${extname(self)}`);
  await new Promise<void>((resolve, reject) => {
    fork(script, ['--size-mb', String(sizeMb)], { stdio: 'inherit' })
      .on('error', reject)
      .on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`))));
  });
  return generateTj({ sizeMb }); // reads the manifest the child wrote
}

interface Pass { parseS: number; wallS: number; cpuS: number; events: number; errors: number; counts: Record<string, number> }

/** One pass over every input file, a fresh parser per file, reading 1 MiB at a time like the tailer. */
function parsePass(input: GeneratedTj): Pass {
  const counts: Record<string, number> = {};
  let parseNs = 0n;
  let errors = 0;
  const wallStart = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (const file of input.files) {
    feedTjFile(input, file, (out) => {
      for (const e of out.events) counts[e.event] = (counts[e.event] ?? 0) + 1;
      errors += out.errors.length;
    }, (ns) => (parseNs += ns));
  }
  // CPU seconds too: on a shared machine wall time includes waiting for a core, CPU time does not.
  const cpu = process.cpuUsage(cpuStart);
  return {
    parseS: Number(parseNs) / 1e9,
    wallS: Number(process.hrtime.bigint() - wallStart) / 1e9,
    cpuS: (cpu.user + cpu.system) / 1e6,
    events: Object.values(counts).reduce((a, b) => a + b, 0),
    errors,
    counts,
  };
}

export async function run(options: { sizeMb?: number; passes?: number } = {}): Promise<BenchResult> {
  const input = await ensureInput(options.sizeMb ?? 200);
  const rssBefore = process.resourceUsage().maxRSS; // KiB
  const passes: Pass[] = [];
  for (let i = 0; i < (options.passes ?? 3); i++) passes.push(parsePass(input));
  // The median pass by parse time: one pass disturbed by a neighbour on a shared machine does not move it.
  const median = [...passes].sort((a, b) => a.parseS - b.parseS)[passes.length >> 1] as Pass;
  const best = Math.min(...passes.map((p) => p.parseS));
  const sorted = (c: Record<string, number>): string => JSON.stringify(Object.entries(c).sort());
  const bad = passes.find((p) => p.errors > 0 || sorted(p.counts) !== sorted(input.counts));
  const mb = input.bytes / 1e6;
  return {
    bench: 'tj-parse',
    input: { files: input.files.length, bytes: input.bytes, events: input.events, chunk_bytes: CHUNK, seed: input.seed, passes: passes.length },
    figures: [
      { name: 'throughput (parse only, median pass)', value: mb / median.parseS, unit: 'MB/s' },
      { name: 'throughput (parse only, best pass)', value: mb / best, unit: 'MB/s' },
      { name: 'events (parse only, median pass)', value: median.events / median.parseS, unit: 'events/s' },
      { name: 'throughput (read + parse, median pass)', value: mb / median.wallS, unit: 'MB/s' },
      { name: 'throughput per CPU second (read + parse)', value: mb / median.cpuS, unit: 'MB/s' },
      { name: 'parse time (median pass)', value: median.parseS, unit: 's' },
      { name: 'peak RSS', value: process.resourceUsage().maxRSS / 1024, unit: 'MiB' },
      { name: 'peak RSS before parsing', value: rssBefore / 1024, unit: 'MiB' },
    ],
    ok: bad === undefined,
    notes: bad === undefined ? [] : [`a pass parsed ${bad.events} events and ${bad.errors} errors; expected ${input.events} events: ${sorted(bad.counts)} vs ${sorted(input.counts)}`],
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, passes: { type: 'string' } } });
  const result = await run({ sizeMb: Number(values['size-mb'] ?? 200), passes: Number(values.passes ?? 3) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(result)));
  for (const note of result.notes ?? []) console.log(`note: ${note}`);
  console.log(JSON.stringify(result));
  if (!result.ok) process.exitCode = 1;
}
