// The prefix check of a tailed PostgreSQL log: silent while entries come, said once when the first lines hold none.
import test from 'ava';
import { createPgParser } from '../../../parsers/pg/index.js';
import { PREFIX_CHECK_LINES, watchPrefix } from './prefix-watch.js';

const entry = (i: number): string => `2026-11-30 14:09:45.${String(i % 1000).padStart(3, '0')} MSK [15932] LOG:  duration: 0.512 ms  statement: SELECT ${i}\n`;
const orphan = (i: number): string => `archive_command output line ${i}\n`;

function watched(): { parser: ReturnType<typeof watchPrefix>; said: number[] } {
  const said: number[] = [];
  const inner = createPgParser({ host: 'h', source: 'pg', file: 'f.log', file_key: 'k', offset: 0, format: 'stderr', prefix: '%m [%p] ' });
  return { parser: watchPrefix(inner, (lines) => said.push(lines)), said };
}

test('orphan lines at the start followed by an entry are no mismatch', (t) => {
  const { parser, said } = watched();
  let text = '';
  for (let i = 0; i < PREFIX_CHECK_LINES - 10; i++) text += orphan(i);
  for (let i = 0; i < 50; i++) text += entry(i);
  parser.push(Buffer.from(text));
  parser.finish();
  t.deepEqual(said, []);
});

test('a log of lines none of which starts with the prefix is said once, after the first lines', (t) => {
  const { parser, said } = watched();
  for (let chunk = 0; chunk < 5; chunk++) {
    let text = '';
    for (let i = 0; i < PREFIX_CHECK_LINES; i++) text += `2026-11-30 14:09:45 MSK 15932 LOG:  statement: SELECT ${i}\n`;
    parser.push(Buffer.from(text));
  }
  parser.finish();
  t.is(said.length, 1);
  t.true((said[0] ?? 0) >= PREFIX_CHECK_LINES);
});

test('a short file with no entry is said at its end', (t) => {
  const { parser, said } = watched();
  parser.push(Buffer.from(orphan(1) + orphan(2) + orphan(3)));
  t.deepEqual(said, []);
  parser.finish();
  t.deepEqual(said, [3]);
});

test('the output passes through unchanged', (t) => {
  const text = Buffer.from(orphan(0) + entry(1) + entry(2));
  const plain = createPgParser({ host: 'h', source: 'pg', file: 'f.log', file_key: 'k', offset: 0, format: 'stderr', prefix: '%m [%p] ' });
  const { parser } = watched();
  t.deepEqual([parser.push(text), parser.finish()], [plain.push(text), plain.finish()]);
  t.is(parser.settled, plain.settled);
});
