// Writes a deterministic TJ tree of a requested size into bench/work/ for the parse and ingest benches; reuses it
// when a previous run with the same parameters left it complete (the manifest is written last).
// Usage: npx tsx bench/generate-tj.ts [--size-mb 200] [--seed 42]
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { writeTjTree } from '../simulate/tj-generator.js';
import { benchWorkDir, isMain } from './bench-paths.js';

/** Bumped when the generator's output changes, so stale trees are rewritten. */
const GENERATOR_VERSION = 4;

export interface GeneratedTj {
  generator_version: number;
  dir: string;
  size_mb: number;
  seed: number;
  time_zone: string;
  /** `path` is relative to `dir`. */
  files: { path: string; hour: string; bytes: number; events: number }[];
  bytes: number;
  events: number;
  counts: Record<string, number>;
}

export interface GenerateTjOptions {
  /** Target size in MB (10^6 bytes); the tree stops at the first event past it. Default 200. */
  sizeMb?: number;
  seed?: number;
  /** Rewrite even when a complete tree exists. */
  force?: boolean;
}

export function generateTj(options: GenerateTjOptions = {}): GeneratedTj {
  const sizeMb = options.sizeMb ?? 200;
  const seed = options.seed ?? 42;
  const dir = join(benchWorkDir(), `tj-${sizeMb}mb-seed${seed}`);
  const manifestPath = join(dir, 'manifest.json');
  if (!options.force && existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as GeneratedTj;
    // Paths are stored relative to the tree so a moved checkout still finds it.
    if (manifest.generator_version === GENERATOR_VERSION) return { ...manifest, dir };
  }
  rmSync(dir, { recursive: true, force: true });
  const timeZone = 'Europe/Moscow';
  // One rphost and one local hour (10:00–11:00 Moscow), with enough sessions that the hour holds the whole size:
  // the parse bench then reads one big file, the way the tailer reads the current hour's file. About 5.5 MB per
  // session-hour, so 60 sessions give ~330 MB before the hour ends.
  const result = writeTjTree(dir, {
    seed,
    start: new Date('2026-03-02T07:00:00Z'),
    durationMs: 3600_000 - 1,
    processes: 1,
    sessionsPerProcess: Math.max(4, Math.ceil((sizeMb * 1.5) / 5.5)),
    timeZone,
    maxBytes: sizeMb * 1_000_000,
  });
  if (result.bytes < sizeMb * 1_000_000) throw new Error(`generated only ${result.bytes} bytes in the hour; raise sessionsPerProcess`);
  const manifest: GeneratedTj = {
    generator_version: GENERATOR_VERSION,
    dir,
    size_mb: sizeMb,
    seed,
    time_zone: timeZone,
    files: result.files.map((f) => ({ path: relative(dir, f.path), hour: f.path.slice(-12, -4), bytes: f.bytes, events: f.events })),
    bytes: result.bytes,
    events: result.events,
    counts: result.counts,
  };
  writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, dir: '.' }, null, 2)}\n`);
  return manifest;
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, seed: { type: 'string' }, force: { type: 'boolean' } } });
  const started = performance.now();
  const out = generateTj({ sizeMb: Number(values['size-mb'] ?? 200), seed: Number(values.seed ?? 42), force: values.force ?? false });
  const seconds = (performance.now() - started) / 1000;
  console.log(`${out.dir}: ${out.files.length} file(s), ${(out.bytes / 1e6).toFixed(1)} MB, ${out.events} events in ${seconds.toFixed(1)} s`);
  console.log(JSON.stringify(out.counts));
}
