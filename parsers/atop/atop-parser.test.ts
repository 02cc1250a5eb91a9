// Behaviour of the -P parser on small hand-made inputs: chunking, sample framing, bad lines, checkpoints.
import test from 'ava';
import fc from 'fast-check';
import type { AtopRecord } from '../../schemas/atop-record.js';
import { AtopRecordSchema } from '../../schemas/atop-record.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { IngestErrorSchema } from '../../schemas/ingest-error.js';
import { createAtopParser } from './index.js';

const ctx = { host: 'agent', source: 'atop', file: 'atop.txt', file_key: 'fk', offset: 0 };
const H = (label: string, epoch: number, interval: number) =>
  `${label} vm ${epoch} 2026/11/30 14:09:0${epoch % 10} ${interval}`;

const SMALL = [
  'RESET',
  `${H('CPU', 1796047744, 423)} 100 2 5416 9298 0 68655 345 0 114 24 0 5192 100 0 0`,
  `${H('CPL', 1796047744, 423)} 2 0.62 0.37 0.16 1197495 538698`,
  `${H('PRG', 1796047744, 423)} 45 (cpu burn (x) 1) R 0 0 45 1 0 1796047743 (sh -c (x) ) 1 1 0 0 0 0 0 0 0 0 0 y 0 0 - N ()`,
  'SEP',
  `${H('CPU', 1796047745, 1)} 100 2 49 101 0 29 16 0 3 0 0 5192 100 0 0`,
  `${H('PRC', 1796047745, 1)} 45 ((sd-pam)) S 100 80 1 0 120 0 0 1 0 45 y 104576701 () 0 -3 -3`,
  'SEP',
  '',
].join('\n');

function parseAll(input: Buffer, cuts: number[], offset = 0) {
  const parser = createAtopParser({ ...ctx, offset });
  const events: AtopRecord[] = [];
  const errors: IngestError[] = [];
  let from = 0;
  for (const cut of [...cuts, input.length]) {
    const out = parser.push(input.subarray(from, cut));
    events.push(...out.events);
    errors.push(...out.errors);
    from = cut;
  }
  const last = parser.finish();
  return { events: [...events, ...last.events], errors: [...errors, ...last.errors], settled: parser.settled };
}

test('every single split point and every pair of split points give the output of the whole input', (t) => {
  const input = Buffer.from(SMALL);
  const whole = parseAll(input, []);
  t.is(whole.events.length, 5);
  for (let i = 0; i <= input.length; i += 1) {
    t.deepEqual(parseAll(input, [i]), whole, `split at ${i}`);
  }
  for (let i = 0; i <= input.length; i += 7) {
    for (let j = i; j <= input.length; j += 5) t.deepEqual(parseAll(input, [i, j]), whole, `split at ${i}, ${j}`);
  }
  // One byte at a time, the hardest split.
  t.deepEqual(parseAll(input, [...input.keys()]), whole);
});

test('records validate against the schema and carry the sample framing', (t) => {
  const { events, errors } = parseAll(Buffer.from(SMALL), []);
  t.deepEqual(errors, []);
  for (const e of events) AtopRecordSchema.parse(e);
  t.deepEqual(events.map((e) => [e.label, e.sample, e.since_boot]), [
    ['CPU', 0, true], ['CPL', 0, true], ['PRG', 0, true], ['CPU', 1, false], ['PRC', 1, false],
  ]);
  t.is(events[0]!.ts, '2026-11-30T14:09:04.000Z');
  t.is(events[1]!.origin.offset, SMALL.indexOf('CPL'));
});

test('process names and command lines keep their spaces and parentheses', (t) => {
  const { events } = parseAll(Buffer.from(SMALL), []);
  const prg = events[2]!.fields;
  t.is(prg.name, 'cpu burn (x) 1');
  t.is(prg.cmdline, 'sh -c (x) ');
  t.is(prg.ppid, 1);
  t.is(prg.cgroup, '');
  t.is(events[4]!.fields.name, '(sd-pam)');
  t.is(events[4]!.fields.wchan, '');
});

test('a garbage line becomes one IngestError at its offset and every other line is still read', (t) => {
  const garbage = 'this is not atop output';
  const lines = SMALL.split('\n');
  lines.splice(3, 0, garbage);
  const input = lines.join('\n');
  const { events, errors } = parseAll(Buffer.from(input), []);
  t.is(events.length, 5);
  t.is(errors.length, 1);
  const error = IngestErrorSchema.parse(errors[0]);
  t.is(error.offset, Buffer.byteLength(input.slice(0, input.indexOf(garbage))));
  t.is(error.length, garbage.length + 1);
  t.is(error.kind, 'garbage_line');
  t.is(error.excerpt, garbage);
  t.true(error.can_continue);
  t.regex(error.reason, /^atop\.txt at offset \d+: the line is neither RESET\/SEP nor/);
});

test('a line with a field count no atop version prints is reported, not guessed', (t) => {
  const input = `${H('MEM', 1796047744, 1)} 4096 6171023 5536796\n`;
  const { events, errors } = parseAll(Buffer.from(input), []);
  t.is(events.length, 0);
  t.is(errors[0]?.kind, 'bad_fields');
  t.is(errors[0]?.reason, 'atop.txt at offset 0: MEM line has 3 fields after the header; atop 2.4–2.13 print 15, 16, 18, 21 or 26 (a cut line?); the line was skipped');
});

test('an unknown label and a non-numeric value are reported with what was expected', (t) => {
  const input = `${H('XYZ', 1796047744, 1)} 1 2\n${H('CPL', 1796047744, 1)} 2 0.62 x 0.16 1 2\n`;
  const { errors } = parseAll(Buffer.from(input), []);
  t.deepEqual(errors.map((e) => e.kind), ['unknown_label', 'bad_fields']);
  t.regex(errors[1]!.reason, /CPL field load5 \(position 9\) is "x", expected a number/);
});

test('a newer atop with appended fields is read with the known names and the surplus as f<position>', (t) => {
  const input = `${H('CPL', 1796047744, 1)} 2 0.62 0.37 0.16 1 2 77\n`;
  const { events, errors } = parseAll(Buffer.from(input), []);
  t.deepEqual(errors, []);
  t.is(events[0]!.layout, 'newer');
  t.is(events[0]!.fields.f13, 77);
});

test('settled moves at sample ends only, and a parser restarted there reads the same records', (t) => {
  const input = Buffer.from(SMALL);
  const parser = createAtopParser(ctx);
  const firstSep = SMALL.indexOf('SEP\n') + 4;
  parser.push(input.subarray(0, firstSep - 1));
  t.is(parser.settled, 0);
  parser.push(input.subarray(firstSep - 1, firstSep + 10));
  t.is(parser.settled, firstSep);
  const whole = parseAll(input, []);
  const resumed = parseAll(input.subarray(firstSep), [], firstSep);
  const strip = (e: AtopRecord) => ({ ...e, sample: 0 });
  // `sample` counts from where the parser started; everything else is identical.
  t.deepEqual(resumed.events.map(strip), whole.events.slice(3).map(strip));
  t.is(resumed.settled, input.length);
});

test('an unterminated last line is read at finish, and CRLF line ends are accepted', (t) => {
  const input = `${H('CPL', 1796047744, 1)} 2 0.62 0.37 0.16 1 2\r\n${H('CPL', 1796047745, 1)} 2 0.62 0.37 0.16 1 2`;
  const { events, errors, settled } = parseAll(Buffer.from(input), []);
  t.deepEqual(errors, []);
  t.is(events.length, 2);
  t.is(events[1]!.origin.offset, input.indexOf('\n') + 1);
  t.is(settled, input.length);
});

test('a RESET without a SEP before it still opens a new since-boot sample', (t) => {
  const input = `${H('CPL', 1796047744, 1)} 2 0.62 0.37 0.16 1 2\nRESET\n${H('CPL', 1796047745, 9)} 2 0.62 0.37 0.16 1 2\n`;
  const { events } = parseAll(Buffer.from(input), []);
  t.deepEqual(events.map((e) => [e.sample, e.since_boot]), [[0, false], [1, true]]);
});

test('an endless line (a binary file read as text) is skipped with a bounded excerpt', (t) => {
  const input = Buffer.concat([Buffer.alloc(3 << 20, 0x41), Buffer.from(`\n${H('CPL', 1796047744, 1)} 2 0.62 0.37 0.16 1 2\n`)]);
  const { events, errors } = parseAll(input, [1000, 2 << 20]);
  t.is(events.length, 1);
  t.is(errors[0]?.kind, 'oversized_line');
  t.is(errors[0]?.length, (3 << 20) + 1);
  t.is(errors[0]?.excerpt.length, 512);
});

test('a PRE line cut in two by a line-feed GPU state (atop 2.4/2.5) is read as one line', (t) => {
  const pre = `${H('PRE', 1796047744, 1)} 1 (bash) S `;
  const rest = ' 0 63080020 1970238055 29552 29 7596557092442865696 25966';
  const input = `${pre}\n${rest}\n${H('PRE', 1796047744, 1)} 10 (bash) S N 0 0 0 0 0 0 0\nSEP\n`;
  const whole = parseAll(Buffer.from(input), []);
  t.deepEqual(whole.errors, []);
  t.deepEqual(whole.events.map((e) => [e.origin.offset, e.fields]), [
    [0, { pid: 1, name: 'bash', state: 'S', gpu_state: '\n' }],
    [pre.length + rest.length + 2, { pid: 10, name: 'bash', state: 'S', gpu_state: 'N' }],
  ]);
  for (let i = 0; i <= input.length; i += 1) t.deepEqual(parseAll(Buffer.from(input), [i]), whole, `split at ${i}`);
  // Without its continuation the cut line is an error, and the line after it is still read.
  const alone = parseAll(Buffer.from(`${pre}\n${H('CPL', 1796047744, 1)} 2 0.62 0.37 0.16 1 2\n`), []);
  t.is(alone.errors[0]?.kind, 'bad_fields');
  t.is(alone.events[0]?.label, 'CPL');
});

test('random cut points over a mix of good, bad and cut lines never change the output (fast-check)', (t) => {
  const mixed = Buffer.from(`${SMALL}garbage here\n${H('PRE', 1796047745, 1)} 1 (bash) S \n 0 0 0 0 0 0 0\n` +
    `RESET\n${H('CPL', 1796047746, 9)} 2 0.62 0.37 0.16 1 2\nSEP\n${H('CPL', 1796047747, 1)} 2 0.62 0.37 0.16 1 2`);
  const whole = parseAll(mixed, []);
  t.is(whole.errors.length, 1);
  fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 0, max: mixed.length }), { maxLength: 12 }), (cuts) => {
    t.deepEqual(parseAll(mixed, cuts.sort((a, b) => a - b)), whole);
  }), { numRuns: 300 });
});
