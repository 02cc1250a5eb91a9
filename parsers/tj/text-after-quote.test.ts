// Text after a quote that should close a value (docs/tj-format.md §3.2): a spliced line in public test data. Every
// byte stays in the event, line breaks included, and an ingest error names the offset where the grammar breaks.
import test from 'ava';
import { createTjParser, propsObject } from './index.js';
import type { TjEvent } from '../../schemas/tj-event.js';
import type { IngestError } from '../../schemas/ingest-error.js';

const ctx = { host: 'h', source: 'tj', file: 'rphost_1/21102215.log', file_key: 'k', offset: 0, hour: '21102215', tz: 'UTC' };
const props = (e: TjEvent | undefined) => propsObject(e?.properties ?? []);

function parse(bytes: Buffer, cuts: number[] = []): { events: TjEvent[]; errors: IngestError[] } {
  const p = createTjParser(ctx);
  const events: TjEvent[] = [];
  const errors: IngestError[] = [];
  let prev = 0;
  for (const c of [...cuts, bytes.length]) {
    const r = p.push(bytes.subarray(prev, c));
    events.push(...r.events);
    errors.push(...r.errors);
    prev = c;
  }
  const r = p.finish();
  return { events: [...events, ...r.events], errors: [...errors, ...r.errors] };
}

// A line cut inside Context's quoted value, continued with the tail of another event's line whose Sql value spans
// three lines: the quote that opened that Sql is followed by `S`, so it closes nothing; `t',` does.
const spliced = "00:01.000000-5,DBMSSQL,4,Context='Форма.Запocessname=X,Sql='SELECT\r\nT1._IDRRef\nFROM t',Rows=1\n";
// A quoted value closed, then an unquoted tail glued to it (like `dbpid=8=19400,…` in the same test data): no
// quote after it closes the value before the next event, so the value runs to the next comma, newline included.
const glued = "00:02.000000-5,EXCP,1,Descr='abc'=19400\nrest of it,Usr=b\n";
const after = '00:03.000000-1,CALL,1,Usr=c\n';
const bytes = Buffer.from(spliced + glued + after);

test('a quote followed by text closes nothing: the value runs on, over its line breaks, to a quote that closes it', (t) => {
  const { events } = parse(bytes);
  t.deepEqual(events.map((e) => e.event), ['DBMSSQL', 'EXCP', 'CALL']);
  t.deepEqual(props(events[0]), { Context: "Форма.Запocessname=X,Sql='SELECT\nT1._IDRRef\nFROM t", Rows: '1' });
  t.is(events[0]?.length, Buffer.byteLength(spliced) - 1);
});

test('a value no quote closes before the next event keeps the text after its quote, newlines included, to the next comma', (t) => {
  const { events } = parse(bytes);
  t.deepEqual(props(events[1]), { Descr: "abc'=19400\nrest of it", Usr: 'b' });
  t.is(events[1]?.origin.offset, Buffer.byteLength(spliced));
  t.is(events[1]?.length, Buffer.byteLength(glued) - 1);
  t.deepEqual(props(events[2]), { Usr: 'c' });
});

test('each value with text after a quote is an ingest error at the offset of that text', (t) => {
  const { errors } = parse(bytes);
  const sqlQuote = Buffer.byteLength(spliced.slice(0, spliced.indexOf("'SELECT")));
  const descrQuote = Buffer.byteLength(spliced) + glued.indexOf("'=");
  t.deepEqual(errors.map((e) => [e.kind, e.offset, e.length, e.can_continue]), [
    ['text_after_quote', sqlQuote + 1, 0, true],
    ['text_after_quote', descrQuote + 1, 0, true],
  ]);
  t.is(errors[0]?.reason, `rphost_1/21102215.log at offset ${sqlQuote + 1}: the quote before this byte is followed by text, not by a comma or a line end, so it does not close the value of Context (opened at offset 33); the quote was kept in the value, which runs to the quote at offset ${Buffer.byteLength(spliced) - 9}`);
  t.is(errors[1]?.reason, `rphost_1/21102215.log at offset ${descrQuote + 1}: the quote before this byte is followed by text, not by a comma or a line end, so it does not close the value of Descr (opened at offset ${Buffer.byteLength(spliced) + 28}); no quote closes it before the next event, so the value was read to the next comma with the text after the quote kept`);
});

test('text after a quote: any split of the input gives the result of the whole', (t) => {
  const whole = parse(bytes);
  for (let i = 0; i <= bytes.length; i++) t.deepEqual(parse(bytes, [i]), whole, `split at ${i}`);
});

test('a quote followed by text at the end of the file keeps the value to the end', (t) => {
  const { events, errors } = parse(Buffer.from("00:04.000000-1,EXCP,1,Descr='a'b\nc"));
  t.deepEqual(props(events[0]), { Descr: "a'b\nc" });
  t.deepEqual(errors.map((e) => e.kind), ['text_after_quote']);
});
