// Properties of the TJ parser on generated input that leans towards TJ syntax (headers, quotes, commas,
// line breaks, Cyrillic, stray bytes): it never throws, any chunking gives the same output, and every
// byte is accounted for by an event, an ingest error, or a line break / BOM between them.
import test from 'ava';
import fc from 'fast-check';
import { createTjParser } from './index.js';
import type { TjEvent } from '../../schemas/tj-event.js';
import type { IngestError } from '../../schemas/ingest-error.js';

const ctx = { host: 'h', source: 'tj', file: 'f.log', file_key: 'k', offset: 0, hour: '26113014', tz: 'UTC' };

const FRAGMENTS = [
  '00:01.000001-5,CALL,1,', '59:59.9999-12,TLOCK,3,', '12:34.567890-0,Context,2', '2026-11-30T14:00:00.000001-7,DB2,0,',
  'Usr=a', ',', '=', "'", '"', "''", '""', '\n', '\r\n', ' ', 'Sql=', "Locks='R.X Exclusive ID=1:ab'", 'Контекст',
  'WaitConnections=', '\u0000', '\t', '\uFEFF',
];
const piece = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...FRAGMENTS).map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => Buffer.from(a)) },
);
const input = fc.array(piece, { maxLength: 60 }).map((parts) => Buffer.concat(parts));

function parse(bytes: Buffer, cuts: number[]): { events: TjEvent[]; errors: IngestError[] } {
  const p = createTjParser(ctx);
  const events: TjEvent[] = [];
  const errors: IngestError[] = [];
  let prev = 0;
  for (const c of [...cuts.filter((c) => c <= bytes.length).sort((a, b) => a - b), bytes.length]) {
    const r = p.push(bytes.subarray(prev, c));
    events.push(...r.events);
    errors.push(...r.errors);
    prev = c;
  }
  const r = p.finish();
  return { events: [...events, ...r.events], errors: [...errors, ...r.errors] };
}

test('any input: no exception, and any chunking gives the output of the whole', (t) => {
  fc.assert(fc.property(input, fc.array(fc.nat({ max: 400 }), { maxLength: 6 }), (bytes, cuts) => {
    t.deepEqual(parse(bytes, cuts), parse(bytes, []));
  }), { numRuns: 400 });
});

test('any input: every byte is in an event, an ingest error, or a line break or BOM between them', (t) => {
  fc.assert(fc.property(input, (bytes) => {
    const { events, errors } = parse(bytes, []);
    const covered = new Uint8Array(bytes.length);
    const mark = (start: number, length: number): void => {
      for (let i = start; i < start + length; i++) {
        if (covered[i]) throw new Error(`byte ${i} is counted twice`);
        covered[i] = 1;
      }
    };
    for (const e of events) mark(e.origin.offset, e.length);
    // invalid_utf8 and text_after_quote errors point inside an event they do not replace; the others own their bytes.
    for (const e of errors) if (e.kind !== 'invalid_utf8') mark(e.offset, e.length);
    for (let i = 0; i < bytes.length; i++) {
      if (covered[i]) continue;
      const b = bytes[i];
      const bom = i < 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      if (b !== 0x0a && b !== 0x0d && !bom) throw new Error(`byte ${i} (0x${b?.toString(16)}) is in no event and no error`);
    }
    t.pass();
  }), { numRuns: 400 });
});
