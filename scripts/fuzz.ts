// `npm run fuzz -- --minutes N [--parser tj|pg-stderr|pg-csvlog|pg-jsonlog|atop|atop-json|apdex]`: a bounded
// fuzz run per parser. Inputs are seeds (corpus files when ../shared/corpus is there, plus small built-in
// samples) mutated by byte flips, insertions, deletions, splices and duplications. Each input must parse
// without an exception, and a random chunking must give the same output as the whole. Prints a line per
// parser and exits 1 on the first failure, writing the input to bench/work/fuzz-crash-<parser>.bin.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import type { FileContext, IncrementalParser } from '../parsers/parser.js';
import { createTjParser } from '../parsers/tj/index.js';
import { createPgParser } from '../parsers/pg/index.js';
import { createAtopParser, createAtopJsonParser } from '../parsers/atop/index.js';
import { createApdexParser } from '../parsers/apdex/index.js';
import { createPrng } from '../simulate/prng.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = join(root, '..', 'shared', 'corpus');
const ctx: FileContext = { host: 'fuzz', source: 'fuzz', file: 'fuzz.log', file_key: 'k', offset: 0 };

interface Target { make(): IncrementalParser<unknown>; seeds: Buffer[] }

function files(dir: string, pattern: RegExp, limit = 8, maxBytes = 2_000_000): Buffer[] {
  const out: Buffer[] = [];
  const walk = (d: string): void => {
    let names: string[];
    try { names = readdirSync(d); } catch { return; }
    for (const n of names) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (pattern.test(n) && out.length < limit) {
        const raw = readFileSync(p);
        out.push((n.endsWith('.gz') ? gunzipSync(raw) : raw).subarray(0, maxBytes));
      }
    }
  };
  walk(dir);
  return out;
}

const TARGETS: Record<string, Target> = {
  tj: {
    make: () => createTjParser({ ...ctx, hour: '26113014', tz: 'Europe/Moscow' }),
    seeds: [...files(join(corpus, 'tj'), /\.log$/), Buffer.from("\uFEFF00:01.000001-5,TLOCK,2,Locks='A.B Exclusive ID=1:x',Context='\nМодуль : 1'\n00:02.0000-3,DB2,1,Sql=\"it''s\"\n")],
  },
  'pg-stderr': {
    make: () => createPgParser({ ...ctx, format: 'stderr', prefix: '%m [%p] ' }),
    seeds: [...files(join(corpus, 'pg'), /\.log$/, 4), Buffer.from('2026-11-30 14:00:00.000 UTC [12] LOG:  process 12 still waiting for ShareLock on transaction 5 after 1000.1 ms\n2026-11-30 14:00:00.000 UTC [12] DETAIL:  Process holding the lock: 13. Wait queue: 12.\n')],
  },
  'pg-csvlog': { make: () => createPgParser({ ...ctx, format: 'csvlog' }), seeds: files(join(corpus, 'pg'), /\.csv$/, 2) },
  'pg-jsonlog': { make: () => createPgParser({ ...ctx, format: 'jsonlog' }), seeds: files(join(corpus, 'pg'), /\.json$/, 2) },
  atop: { make: () => createAtopParser(ctx), seeds: files(join(corpus, 'atop'), /-P-.*\.txt$/, 4) },
  'atop-json': { make: () => createAtopJsonParser(ctx), seeds: files(join(corpus, 'atop'), /\.ndjson$/, 2) },
  apdex: { make: () => createApdexParser(ctx), seeds: [Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Performance version="1.0.0.4"><KeyOperation name="Провести" targetValue="1.5" priority="1"><measurement value="0.5" tStamp="2026-11-30T14:00:00"/></KeyOperation></Performance>')] },
};

function mutate(seed: Buffer, rng: ReturnType<typeof createPrng>, pool: Buffer[]): Buffer {
  let b = Buffer.from(seed.subarray(0, rng.int(1, Math.min(seed.length, 64 * 1024))));
  for (let n = rng.int(1, 8); n > 0; n--) {
    const at = rng.int(0, Math.max(0, b.length - 1));
    switch (rng.int(0, 4)) {
      case 0: if (b.length > 0) b[at] = rng.int(0, 255); break;
      case 1: b = Buffer.concat([b.subarray(0, at), Buffer.from([rng.int(0, 255)]), b.subarray(at)]); break;
      case 2: b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + rng.int(1, 64)))]); break;
      case 3: { const other = pool[rng.int(0, pool.length - 1)] as Buffer; const from = rng.int(0, Math.max(0, other.length - 1)); b = Buffer.concat([b.subarray(0, at), other.subarray(from, from + rng.int(1, 256)), b.subarray(at)]); break; }
      default: b = Buffer.concat([b.subarray(0, at), b.subarray(at, at + rng.int(1, 128)), b.subarray(at)]);
    }
  }
  return b;
}

function run(make: () => IncrementalParser<unknown>, bytes: Buffer, cuts: number[]): unknown {
  const p = make();
  const out: unknown[] = [];
  let prev = 0;
  for (const c of [...cuts, bytes.length]) {
    out.push(p.push(Buffer.from(bytes.subarray(prev, c))));
    prev = c;
  }
  out.push(p.finish());
  const flat = out as Array<{ events: unknown[]; errors: unknown[] }>;
  return { events: flat.flatMap((o) => o.events), errors: flat.flatMap((o) => o.errors) };
}

const { values } = parseArgs({ options: { minutes: { type: 'string' }, parser: { type: 'string' }, seed: { type: 'string' } } });
const minutes = Number(values.minutes ?? 1);
const names = values.parser ? [values.parser] : Object.keys(TARGETS);
const rng = createPrng(Number(values.seed ?? Date.now() % 1e9));
let failed = false;
for (const name of names) {
  const target = TARGETS[name];
  if (!target) throw new Error(`unknown parser ${name}; expected one of ${Object.keys(TARGETS).join(', ')}`);
  if (target.seeds.length === 0) { console.log(`fuzz ${name}: no seeds here (../shared/corpus absent), skipped`); continue; }
  const deadline = Date.now() + (minutes * 60_000) / names.length;
  let cases = 0;
  let bytes = 0;
  while (Date.now() < deadline) {
    const input = mutate(target.seeds[rng.int(0, target.seeds.length - 1)] as Buffer, rng, target.seeds);
    const cuts = Array.from({ length: rng.int(0, 4) }, () => rng.int(0, input.length)).sort((a, b) => a - b);
    try {
      const whole = run(target.make, input, []);
      if (!isDeepStrictEqual(run(target.make, input, cuts), whole)) throw new Error(`chunked at ${cuts.join(',')} differs from whole`);
    } catch (error) {
      const file = join(root, 'bench', 'work', `fuzz-crash-${name}.bin`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, input);
      console.log(`fuzz ${name}: FAILED after ${cases} cases: ${(error as Error).stack}\ninput written to ${file}`);
      failed = true;
      break;
    }
    cases++;
    bytes += input.length;
  }
  if (!failed) console.log(`fuzz ${name}: ${cases} cases, ${(bytes / 1e6).toFixed(1)} MB, no exception, chunking invariant`);
  if (failed) break;
}
process.exitCode = failed ? 1 : 0;
