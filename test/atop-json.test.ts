// The -J parser: every NDJSON file of the corpus reads without error, one record per label instance, and
// a raw log replayed as -J derives the same figures as the same log replayed as -P.
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AtopRecord } from '../schemas/atop-record.js';
import { AtopRecordSchema } from '../schemas/atop-record.js';
import type { FileContext, IncrementalParser } from '../parsers/parser.js';
import { createAtopJsonParser, createAtopParser } from '../parsers/atop/index.js';
import { deriveSample, groupSamples } from '../parsers/atop/derive.js';
import { missingCorpus, testIf } from './support/prerequisites.js';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/atop', import.meta.url));
const present = existsSync(CORPUS);
const maybe = testIf(missingCorpus('atop'));
const ctx: FileContext = { host: 'agent', source: 'atop', file: 'f.ndjson', file_key: 'k', offset: 0 };

function parse(create: (c: FileContext) => IncrementalParser<AtopRecord>, bytes: Buffer, chunk = bytes.length) {
  const parser = create(ctx);
  const events: AtopRecord[] = [];
  const errors: unknown[] = [];
  for (let at = 0; at < bytes.length; at += chunk) {
    const out = parser.push(bytes.subarray(at, at + chunk));
    events.push(...out.events);
    errors.push(...out.errors);
  }
  const out = parser.finish();
  return { events: [...events, ...out.events], errors: [...errors, ...out.errors], settled: parser.settled };
}

const jsonFiles = present ? readdirSync(CORPUS).filter((f) => f.endsWith('.ndjson')) : [];

for (const file of jsonFiles) {
  maybe(`${file}: zero errors, one record per label instance, only the first sample since boot`, (t) => {
    const bytes = readFileSync(join(CORPUS, file));
    const { events, errors, settled } = parse(createAtopJsonParser, bytes);
    t.deepEqual(errors, []);
    t.is(settled, bytes.length);
    const expected: Record<string, number> = {};
    for (const line of bytes.toString('utf8').split('\n').filter((l) => l !== '')) {
      for (const [key, v] of Object.entries(JSON.parse(line) as Record<string, unknown>)) {
        if (key === 'host' || key === 'timestamp' || key === 'elapsed') continue;
        const label = key === 'NET_GENERAL' ? 'NET' : key;
        expected[label] = (expected[label] ?? 0) + (Array.isArray(v) ? v.length : 1);
      }
    }
    const counts: Record<string, number> = {};
    for (const e of events) counts[e.label] = (counts[e.label] ?? 0) + 1;
    t.deepEqual(counts, Object.fromEntries(Object.entries(expected).filter(([, n]) => n > 0)));
    for (const e of events) AtopRecordSchema.parse(e);
    t.deepEqual([...new Set(events.filter((e) => e.since_boot).map((e) => e.sample))], [0]);
    t.deepEqual(parse(createAtopJsonParser, bytes, 997), parse(createAtopJsonParser, bytes));
  });
}

maybe('-J and -P replays of the same raw log derive the same CPU, disk, memory and interface figures', (t) => {
  const fromJson = parse(createAtopJsonParser, readFileSync(join(CORPUS, 'atop-2.8.1-raw-J-ALL.ndjson'))).events;
  const fromText = parse(createAtopParser, readFileSync(join(CORPUS, 'atop-2.8.1-raw-P-ALL.txt'))).events;
  const derive = (events: AtopRecord[]) => groupSamples(events).map((s) => deriveSample(s, 5)!).filter((m) => !m.since_boot);
  const j = derive(fromJson);
  const p = derive(fromText);
  t.is(j.length, 4);
  t.is(p.length, 4);
  const close = (a: number | null, b: number | null, tolerance = 1e-9) => a !== null && b !== null && Math.abs(a - b) <= tolerance;
  j.forEach((js, i) => {
    const ps = p[i]!;
    t.is(js.epoch, ps.epoch);
    t.deepEqual(js.cpu, ps.cpu);
    t.deepEqual(js.memory, ps.memory);
    t.deepEqual(js.interfaces, ps.interfaces);
    t.deepEqual(js.disks.map((d) => ({ ...d, avg_queue: null })), ps.disks.map((d) => ({ ...d, avg_queue: null })));
    // -P prints the queue depth with 2 decimals.
    js.disks.forEach((d, k) => t.true(close(d.avg_queue, ps.disks[k]!.avg_queue, 0.005)));
    t.deepEqual(js.top.by_cpu.map((x) => [x.pid, x.name, x.cpu_pct]), ps.top.by_cpu.map((x) => [x.pid, x.name, x.cpu_pct]));
    t.deepEqual(js.top.by_memory.map((x) => x.rss_kib), ps.top.by_memory.map((x) => x.rss_kib));
  });
});

test('a line that is not JSON becomes one error at its offset, the samples around it are kept', (t) => {
  const good = JSON.stringify({ host: 'vm', timestamp: 1796047744, elapsed: 1, CPL: { lavg1: 0.5, csw: 10 }, DSK: [] });
  const input = `${good}\n{"host": "vm", "timest\n${good}\n`;
  const { events, errors } = parse(createAtopJsonParser, Buffer.from(input));
  t.deepEqual(events.map((e) => [e.label, e.sample, e.since_boot, e.fields.load1]), [['CPL', 0, true, 0.5], ['CPL', 1, false, 0.5]]);
  t.is(errors.length, 1);
  t.like(errors[0] as object, { kind: 'bad_json', offset: good.length + 1, length: 23 });
});
