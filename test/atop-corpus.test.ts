// Every atop -P file of the shared corpus parses without an ingest error, with record counts per label,
// since-boot marking and version layouts checked against independent readings of the same files.
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AtopRecord } from '../schemas/atop-record.js';
import { AtopRecordSchema } from '../schemas/atop-record.js';
import { createAtopParser } from '../parsers/atop/index.js';
import { ATOP_VERSIONS } from '../parsers/atop/labels/layout.js';
import { missingCorpus, testIf } from './support/prerequisites.js';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/atop', import.meta.url));
const present = existsSync(CORPUS);
const maybe = testIf(missingCorpus('atop'));

function parseableFiles(): string[] {
  if (!present) return [];
  const inDir = (dir: string, pattern: RegExp) =>
    existsSync(join(CORPUS, dir)) ? readdirSync(join(CORPUS, dir)).filter((f) => pattern.test(f)).map((f) => join(dir, f)) : [];
  return [
    ...inDir('.', /^atop-.*\.txt$/),
    ...inDir('public', /\.raw\.txt$/),
    ...inDir('public/pyranha_atoparser', /^replay_.*_P_ALL\.txt$/),
  ];
}

function parse(bytes: Buffer, chunk = bytes.length) {
  const parser = createAtopParser({ host: 'agent', source: 'atop', file: 'f', file_key: 'k', offset: 0 });
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

/** The independent count: first word of every line that is not blank, RESET or SEP. */
function countLabels(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const label = line.split(' ')[0] ?? '';
    if (label === '' || label === 'RESET' || label === 'SEP') continue;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

/** Independent since-boot count: data lines between a RESET and the next SEP. */
function countSinceBootLines(text: string): number {
  let inReset = false;
  let n = 0;
  for (const line of text.split('\n')) {
    if (line === 'RESET') inReset = true;
    else if (line === 'SEP') inReset = false;
    else if (inReset && line.trim() !== '') n += 1;
  }
  return n;
}

/** atop version a file was written by, from its name (`atop-2.10.0-…`, `replay_atop_2_7_1_…`); rachlenko's are 2.8. */
function versionOf(file: string): string {
  const m = /atop[-_](\d+)[._](\d+)/.exec(file);
  return m === null ? '2.8' : `${m[1]}.${m[2]}`;
}

/** Whether a layout like `2.8–2.9` or `2.4` covers a version. */
function covers(layout: string, version: string): boolean {
  const [from = '', to = from] = layout.split('–');
  const rank = (v: string) => ATOP_VERSIONS.indexOf(v as (typeof ATOP_VERSIONS)[number]);
  return rank(from) <= rank(version) && rank(version) <= rank(to);
}

maybe('the corpus holds the -P files the brief names', (t) => {
  const files = parseableFiles();
  t.true(files.length >= 17, files.join(', '));
  t.true(files.some((f) => f.includes('replay_atop_2_4_P_ALL')));
  t.true(files.some((f) => f.endsWith('.raw.txt')));
});

for (const file of parseableFiles()) {
  maybe(`${file}: zero ingest errors and one record per data line, per label`, (t) => {
    const bytes = readFileSync(join(CORPUS, file));
    const { events, errors, settled } = parse(bytes);
    t.deepEqual(errors, []);
    const counts: Record<string, number> = {};
    for (const e of events) counts[e.label] = (counts[e.label] ?? 0) + 1;
    t.deepEqual(counts, countLabels(bytes.toString('utf8')));
    t.is(settled, bytes.length);
    for (const e of events) AtopRecordSchema.parse(e);
  });

  maybe(`${file}: since-boot records are exactly those after a RESET`, (t) => {
    const bytes = readFileSync(join(CORPUS, file));
    const { events } = parse(bytes);
    t.is(events.filter((e) => e.since_boot).length, countSinceBootLines(bytes.toString('utf8')));
  });

  maybe(`${file}: every record's layout covers the atop version that wrote the file`, (t) => {
    const version = versionOf(file);
    const { events } = parse(readFileSync(join(CORPUS, file)));
    const wrong = events.filter((e) => !covers(e.layout, version)).map((e) => `${e.label} ${e.layout}`);
    t.deepEqual([...new Set(wrong)], [], `file by atop ${version}`);
  });

  maybe(`${file}: chunks of 1, 13 and 4096 bytes give the output of the whole file`, (t) => {
    const bytes = readFileSync(join(CORPUS, file));
    const whole = parse(bytes);
    for (const chunk of bytes.length > 30_000 ? [13, 4096] : [1, 13, 4096]) t.deepEqual(parse(bytes, chunk), whole, `chunk ${chunk}`);
  });
}

maybe('the restart file has two since-boot samples, the second in mid-file after a SEP', (t) => {
  const { events } = parse(readFileSync(join(CORPUS, 'atop-2.8.1-restart-raw-P-CPU-CPL-DSK-PRG.txt')));
  const samples = [...new Map(events.map((e) => [e.sample, [e.since_boot, e.interval]] as const)).values()];
  // Intervals 529 and 532 are the uptimes the two atop starts printed; 1 s samples follow each.
  t.deepEqual(samples, [[true, 529], [false, 1], [true, 532], [false, 1]]);
});

maybe('names with spaces and parentheses come out whole in every format version', (t) => {
  for (const file of ['atop-2.7.1-P-ALL.txt', 'atop-2.8.1-P-ALL.txt', 'atop-2.10.0-P-ALL.txt', 'atop-2.12.1-P-ALL-except-CGR.txt']) {
    const { events } = parse(readFileSync(join(CORPUS, file)));
    const burn = events.filter((e) => e.fields.pid === 45 && e.label.startsWith('PR'));
    t.true(burn.length > 0, file);
    t.deepEqual([...new Set(burn.map((e) => e.fields.name))], ['cpu burn (x) 1'], file);
  }
  const full = parse(readFileSync(join(CORPUS, 'public/rachlenko_atop-flame_test_data_output_full.raw.txt')));
  t.true(full.events.some((e) => e.fields.name === '(sd-pam)'));
});

maybe('-Z output keeps underscores and reads the same numbers as the default form', (t) => {
  const z = parse(readFileSync(join(CORPUS, 'atop-2.8.1-raw-Z-P-PRG-PRC-PRM-PRD.txt'))).events;
  const p = parse(readFileSync(join(CORPUS, 'atop-2.8.1-raw-P-ALL.txt'))).events.filter((e) => ['PRG', 'PRC', 'PRM', 'PRD'].includes(e.label));
  t.is(z.length, p.length);
  t.is(z.find((e) => e.label === 'PRC' && e.fields.pid === 45)?.fields.name, 'cpu_burn_(x)_1');
  const numbers = (e: AtopRecord) => Object.values(e.fields).filter((v) => typeof v === 'number');
  t.deepEqual(z.map(numbers), p.map(numbers));
});
