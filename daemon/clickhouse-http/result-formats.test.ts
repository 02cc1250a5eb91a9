import test from 'ava';
import { streamingOf } from './result-formats.js';

test('a header repeated in every chunk is measured on the first: RowBinary\'s names and types, a text format\'s lines', (t) => {
  const rowBinary = streamingOf('RowBinaryWithNamesAndTypes');
  const header = Buffer.from('02066e756d62657201730655496e74363406537472696e67', 'hex'); // number UInt64, s String
  t.is(rowBinary.kind === 'header' ? rowBinary.headerLength(Buffer.concat([header, Buffer.alloc(30)])) : -1, header.length);
  const names = streamingOf('RowBinaryWithNames');
  t.is(names.kind === 'header' ? names.headerLength(Buffer.from('02066e756d6265720173ffff', 'hex')) : -1, 10);
  const csv = streamingOf('CSVWithNamesAndTypes');
  t.is(csv.kind === 'header' ? csv.headerLength(Buffer.from('"a"\n"UInt8"\n1\n2\n')) : -1, 12);
});

test('row formats stream as they come; documents and Values go through a spool file', (t) => {
  t.is(streamingOf('TabSeparated').kind, 'rows');
  t.is(streamingOf('jsoneachrow').kind, 'rows');
  t.is(streamingOf('Native').kind, 'rows');
  t.is(streamingOf('JSON').kind, 'document');
  t.is(streamingOf('PrettyCompactMonoBlock').kind, 'document');
  t.is(streamingOf('Values').kind, 'document');
  t.is(streamingOf('Parquet').kind, 'document');
});
