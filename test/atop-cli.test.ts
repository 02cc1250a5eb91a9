// `perfpipe parse atop` and `perfpipe ingest --atop` as a user runs them: the corpus file parses to one record per
// data line, a bad line becomes an ingest error on stderr, and a file written by a real atop run is stored without
// its since-boot sample, with CPU busy % equal to what parsers/atop/derive.ts computes from the same text.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAtopParser } from '../parsers/atop/index.js';
import { deriveSample, groupSamples } from '../parsers/atop/derive.js';
import { runCli } from './support/cli.js';
import { corpusDir, missingCorpus, missingPrograms, testIf } from './support/prerequisites.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-atopcli-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

/** Records per label counted straight from the text: every line but SEP, RESET and blank ones is a record. */
function labelCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (line === '' || line === 'SEP' || line === 'RESET') continue;
    const label = line.slice(0, line.indexOf(' '));
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

testIf(missingCorpus('atop/atop-2.8.1-raw-P-ALL.txt'))('parse atop prints one record per data line of the corpus file, labels and since-boot flags right', async (t) => {
  const file = join(corpusDir, 'atop', 'atop-2.8.1-raw-P-ALL.txt');
  const r = await runCli(['parse', 'atop', file]);
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { label: string; host: string; epoch: number; interval: number; since_boot: boolean; sample: number; fields: Record<string, unknown> });
  const counts: Record<string, number> = {};
  for (const rec of records) counts[rec.label] = (counts[rec.label] ?? 0) + 1;
  t.deepEqual(counts, labelCounts(readFileSync(file, 'utf8')));
  t.is(records.length, 757);
  t.deepEqual([...new Set(records.map((x) => x.sample))], [0, 1, 2, 3, 4]);
  t.true(records.every((x) => x.since_boot === (x.sample === 0)));
  t.like(records[0], { label: 'CPU', host: 'vm', epoch: 1796047744, interval: 423, fields: { hertz: 100, nrcpu: 2 } });
});

test('parse atop reports a cut line as an ingest error on stderr and still exits 0', async (t) => {
  const file = join(work, 'cut.txt');
  const cut = 'CPL vm 1796047744 2026/11/30 14:09:04 423 2 0.52';
  const text = ['RESET', 'CPL vm 1796047744 2026/11/30 14:09:04 423 2 0.52 0.31 0.12 1000 500', cut, 'SEP', ''].join('\n');
  writeFileSync(file, text);
  const r = await runCli(['parse', 'atop', file]);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout.trim().split('\n').length, 1);
  const errors = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; offset: number; can_continue: boolean });
  t.is(errors.length, 1);
  t.like(errors[0], { kind: 'bad_fields', offset: text.indexOf(`${cut}\n`), can_continue: true });
});

test('parse atop without a file says what is expected and exits 2', async (t) => {
  const r = await runCli(['parse', 'atop']);
  t.is(r.code, 2);
  t.is(r.stderr, 'perfpipe: parse atop: no FILE given\nusage: perfpipe parse atop FILE… [--host NAME]\n');
});

/** A real `atop -P` run of 3 one-second samples; an atop that cannot run, or prints fewer, fails the test. */
function recordAtop(file: string): void {
  const run = spawnSync('atop', ['-P', 'CPU,cpu,MEM,DSK,NET,PRG,PRC', '1', '3'], { encoding: 'utf8', timeout: 30_000, maxBuffer: 64 << 20 });
  if (run.error) throw new Error(`atop cannot run here: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`atop exited ${run.status}: ${run.stderr.trim()}`);
  const samples = run.stdout.split('\n').filter((l) => l === 'SEP').length;
  if (samples !== 3) throw new Error(`atop printed ${samples} samples, not 3`);
  writeFileSync(file, run.stdout);
}

testIf(missingPrograms('atop'))('ingest --atop stores a real atop run without its since-boot sample, CPU busy % as derive.ts computes it', async (t) => {
  const file = join(work, 'run.txt');
  recordAtop(file);
  const text = readFileSync(file, 'utf8');
  // The expectation: the same text through the parser and derive.ts, in-process.
  const parser = createAtopParser({ host: 'h', source: 'atop', file, file_key: 'k', offset: 0 });
  const records = [...parser.push(Buffer.from(text)).events, ...parser.finish().events];
  const samples = groupSamples(records).map((s) => deriveSample(s)!);
  t.deepEqual(samples.map((s) => s.since_boot), [true, false, false]);
  const expected = samples.filter((s) => !s.since_boot).map((s) => ({ epoch: s.epoch, busy: s.cpu!.total.busy_pct, cores: s.cpu!.per_cpu.length }));

  const data = join(work, 'data');
  const ingest = await runCli(['ingest', '--atop', file, '--data', data]);
  t.is(ingest.code, 0, ingest.stderr);
  t.regex(ingest.stdout, new RegExp(`^ingested ${records.length} events and 0 ingest errors from 1 files`));
  const again = await runCli(['ingest', '--atop', file, '--data', data]);
  t.regex(again.stdout, /^ingested 0 events/);

  const sql = async (query: string) => {
    const r = await runCli(['sql', query, '--data', data, '--format', 'json']);
    t.is(r.code, 0, r.stderr);
    return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  const system = await sql('SELECT toUnixTimestamp(ts) AS epoch, interval_s FROM atop_system ORDER BY ts');
  t.deepEqual(system.map((r) => Number(r.epoch)), expected.map((e) => e.epoch));
  t.true(system.every((r) => Number(r.interval_s) <= 2), 'no row carries the since-boot interval (the uptime)');
  const cpu = await sql('SELECT toUnixTimestamp(ts) AS epoch, busy_pct FROM atop_cpu WHERE cpu = -1 ORDER BY ts');
  t.is(cpu.length, expected.length);
  cpu.forEach((row, i) => t.true(Math.abs(Number(row.busy_pct) - expected[i]!.busy) < 1e-9, `${row.busy_pct} vs ${expected[i]!.busy}`));
  const cores = await sql('SELECT count() AS n FROM atop_cpu WHERE cpu >= 0');
  t.is(Number(cores[0]?.n), expected.reduce((n, e) => n + e.cores, 0));
  const minute = await sql('SELECT sum(samples) AS n FROM atop_minute');
  t.is(Number(minute[0]?.n), expected.length);
});
