// The saxes-based tokenizer: byte offsets where decoded characters and bytes differ, and a broken tag that does not
// take the rest of the file with it. Expected offsets are found in the bytes themselves (Buffer.indexOf).
import test from 'ava';
import { createXmlTokenizer, type XmlToken } from './xml-tokens.js';

function tokens(bytes: Buffer, splits: number[] = [], offset = 0): XmlToken[] {
  const t = createXmlTokenizer(offset);
  const out: XmlToken[] = [];
  let from = 0;
  for (const at of [...splits, bytes.length]) { out.push(...t.push(bytes.subarray(from, at))); from = at; }
  return [...out, ...t.finish()];
}
const starts = (ts: XmlToken[]): [string, number, number][] => ts.flatMap((t) => (t.kind === 'start' ? [[t.name, t.offset, t.end] as [string, number, number]] : []));

test('invalid UTF-8 bytes and multi-byte characters do not shift the byte offsets of the tags after them', (t) => {
  const bytes = Buffer.concat([Buffer.from('<P><a u="Иванов"/>'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('текст<b/>\r\n<c v="😀"/></P>')]);
  const want = [['P', 100], ...['<a ', '<b', '<c '].map((s, k) => [['a', 'b', 'c'][k], 100 + bytes.indexOf(s)])];
  for (const splits of [[], [5, 20, 21, 22, 30], [...Array(bytes.length - 1).keys()].map((i) => i + 1)]) {
    t.deepEqual(starts(tokens(bytes, splits, 100)).map(([n, o]) => [n, o]), want, `splits ${splits.length}`);
  }
  t.is(starts(tokens(bytes))[3]?.[2], bytes.indexOf('</P>'));
});

test('a tag cut by the next one is one bad token and the elements after it, and their end tags, are still read', (t) => {
  const xml = '<P><K><m v="1" <m v="2"/></K><K><m v="3"/></K></P>';
  const ts = tokens(Buffer.from(xml));
  const bad = ts.filter((k) => k.kind === 'bad');
  t.deepEqual(bad.map((b) => [b.offset, b.end, b.kind === 'bad' && b.reason]), [[xml.indexOf('<m v="1"'), xml.indexOf('<m v="2"'), 'a tag is cut by the next `<` before its closing `>`']]);
  t.deepEqual(ts.flatMap((k) => (k.kind === 'end' ? [[k.name, k.end]] : [])), [['K', xml.indexOf('<K>', 5)], ['K', xml.indexOf('</P>')], ['P', xml.length]]);
  t.deepEqual(starts(ts).map(([n, o]) => [n, o]), [['P', 0], ['K', 3], ['m', xml.indexOf('<m v="2"')], ['K', xml.indexOf('<K>', 5)], ['m', xml.indexOf('<m v="3"')]]);
});

test('UTF-16LE offsets count two bytes a code unit after the BOM, surrogate pairs included', (t) => {
  const xml = '<P><a u="😀"/><b/></P>';
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
  t.deepEqual(starts(tokens(bytes, [3, 7, 8])).map(([n, o]) => [n, o]), [['P', 2], ['a', 2 + 2 * xml.indexOf('<a')], ['b', 2 + 2 * xml.indexOf('<b')]]);
});
