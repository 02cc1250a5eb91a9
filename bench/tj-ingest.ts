// `perfpipe ingest` into the embedded store, as a user runs it: a child process on the generated TJ tree,
// a fresh data directory, wall time, events/s from its summary line, and its peak RSS (VmHWM from /proc).
// Usage: npx tsx bench/tj-ingest.ts [--size-mb 200]   (or node dist/bench/tj-ingest.js after tsc)
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateTj } from './generate-tj.js';
import { benchWorkDir, isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';

function peakRssKiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export async function run(options: { sizeMb?: number } = {}): Promise<BenchResult> {
  const input = generateTj({ sizeMb: options.sizeMb ?? 200 });
  const data = join(benchWorkDir(), 'ingest-data');
  rmSync(data, { recursive: true, force: true });
  // bin/perfpipe.js as a user runs it (its shebang carries the node flags perfpipe runs with).
  const entry = join(repoRoot(), 'bin', 'perfpipe.js');
  const t0 = performance.now();
  const child = spawn(entry, ['ingest', '--tj', input.dir, '--tz', input.time_zone, '--data', data], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  let peak = 0;
  const poll = setInterval(() => { peak = Math.max(peak, peakRssKiB(child.pid ?? 0)); }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => { peak = Math.max(peak, peakRssKiB(child.pid ?? 0)); resolve(c); }));
  clearInterval(poll);
  const wallS = (performance.now() - t0) / 1000;
  const stored = Number(/^ingested (\d+) events/m.exec(stdout)?.[1] ?? -1);
  rmSync(data, { recursive: true, force: true });
  return {
    bench: 'tj-ingest',
    input: { bytes: input.bytes, events: input.events, files: input.files.length },
    figures: [
      { name: 'ingest into embedded store', value: stored / wallS, unit: 'events/s' },
      { name: 'ingest into embedded store', value: input.bytes / 1e6 / wallS, unit: 'MB/s' },
      { name: 'wall time (process start to exit)', value: wallS, unit: 's' },
      { name: 'peak RSS of the ingest process', value: peak / 1024, unit: 'MiB' },
    ],
    ok: code === 0 && stored === input.events,
    notes: [`summary: ${stdout.trim()}`],
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' } } });
  const r = await run({ sizeMb: Number(values['size-mb'] ?? 200) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
}
