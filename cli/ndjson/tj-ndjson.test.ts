// The TJ NDJSON encoder against the string path it replaces in `perfpipe parse tj`: createTjParser's events printed
// as JSON.stringify(toJsonEvent(e)), its errors as they came. Any input, any chunking: the same bytes.
import test from 'ava';
import fc from 'fast-check';
import { createTjParser, type TjFileContext, toJsonEvent } from '../../parsers/tj/index.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import type { NdjsonPiece } from './ndjson-encoder.js';
import { createTjNdjsonEncoder } from './tj-ndjson.js';

const ctx: TjFileContext = { host: 'h"ost', source: 'tj', file: 'rphost_1/26113014.log', file_key: 'k', offset: 0, hour: '26113014', tz: 'Europe/Moscow' };

/** The previous implementation of `parse tj`: what the encoder must print, byte for byte. */
function reference(bytes: Buffer, context: TjFileContext): { ndjson: string; errors: IngestError[] } {
  const parser = createTjParser(context);
  const outs = [parser.push(bytes), parser.finish()];
  return {
    ndjson: outs.flatMap((o) => o.events.map((e) => `${JSON.stringify(toJsonEvent(e))}\n`)).join(''),
    errors: outs.flatMap((o) => o.errors),
  };
}

function encoded(bytes: Buffer, cuts: number[], context: TjFileContext): { ndjson: string; errors: IngestError[] } {
  const encoder = createTjNdjsonEncoder(context);
  const pieces: NdjsonPiece[] = [];
  let prev = 0;
  for (const c of [...cuts.filter((c) => c <= bytes.length).sort((a, b) => a - b), bytes.length]) {
    pieces.push(...(encoder.push(Buffer.from(bytes.subarray(prev, c))) as NdjsonPiece[]));
    prev = c;
  }
  pieces.push(...(encoder.finish() as NdjsonPiece[]));
  return { ndjson: Buffer.concat(pieces.map((p) => p.ndjson)).toString('utf8'), errors: pieces.flatMap((p) => p.errors) };
}

const HEADERS = ['00:01.000001-5,CALL,1', '59:59.9999-12,TLOCK,3', '12:34.567890-0,Context,2', '2026-11-30T14:00:00.000001-7,DB2,0',
  '00:00.000000-99999999999999,SDBL,4', '00:00.000000-1,SDBL,9999999999999999', '01:02.030405-6,EXCP,1'];
const NAMES = ['Usr', 'Sql', 'Context', '__proto__', '0', '1', '42', '007', 'p:processName', 'Имя', 'a"b', 'a\\b', 'x\ty', '', 'toString', 'length'];
const VALUES = ['', 'x', 'Иванов', "'quoted, with = and ,'", "'it''s'", '"say ""hi"""', "'line\r\nbreak\nand\rcr'", "'open", "'a'b",
  '\u0000\u0001\u001f\u007f', '😀', '"\\"', 'a\\nb', "'\r\r\n'", "''''", '"\'"', 'C:\\path', '\u2028'];
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES)).map(([n, v]) => `,${n}=${v}`) },
  { weight: 2, arbitrary: fc.constantFrom(...HEADERS).map((h) => `\n${h}`) },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', ',', '=', "'", '"', ' ', '\r', 'garbage line', '\uFEFF', ',,', ',x') },
);
/** Journal-like text, plus stray bytes (invalid UTF-8) now and then. */
const journal = fc.tuple(fc.constantFrom(...HEADERS), fc.array(piece, { maxLength: 40 }), fc.array(fc.uint8Array({ minLength: 1, maxLength: 3 }), { maxLength: 2 }), fc.nat())
  .map(([head, parts, stray, at]) => {
    const text = Buffer.from(`${head}${parts.join('')}\n`);
    if (stray.length === 0) return text;
    const cut = at % (text.length + 1);
    return Buffer.concat([text.subarray(0, cut), ...stray.map((s) => Buffer.from(s)), text.subarray(cut)]);
  });

test('any journal: the encoder prints what the string path printed, for any chunking', (t) => {
  fc.assert(fc.property(journal, fc.array(fc.nat({ max: 600 }), { maxLength: 5 }), fc.boolean(), (bytes, cuts, knownHour) => {
    const context = knownHour ? ctx : { ...ctx, hour: null };
    t.deepEqual(encoded(bytes, cuts, context), reference(bytes, context));
  }), { numRuns: 3000 });
});

test('a realistic sample matches, whole or in pieces', (t) => {
  const bytes = Buffer.from("\uFEFF05:15.349002-15980,TLOCK,6,process=rphost,Usr=Иванов,Locks='R.X Exclusive Fld=0',WaitConnections=,"
    + "Context='\r\nОбщийМодуль.Вызов : 12 : Сделать();\r\n\tМодуль \"x\" : 3'\r\n32:27.8570-0,TTIMEOUT,5,DataBase=srv\\base,Sql=\"SELECT ''a''\"\n");
  t.deepEqual(encoded(bytes, [], ctx), reference(bytes, ctx));
  t.deepEqual(encoded(bytes, [7, 70, 71, 200], ctx), reference(bytes, ctx));
});

test('repeated names become arrays and digit names sort first, as propsObject makes them', (t) => {
  const bytes = Buffer.from('00:00.000001-1,CALL,1,Usr=A,2=x,Usr=B,__proto__=p,1=y,__proto__=q\n');
  const { ndjson } = encoded(bytes, [], ctx);
  t.is(ndjson, reference(bytes, ctx).ndjson);
  t.true(ndjson.includes('"props":{"1":"y","2":"x","Usr":["A","B"],"__proto__":["p","q"]}'));
});
