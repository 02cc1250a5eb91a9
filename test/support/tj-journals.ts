// Generated TJ journals for the property tests of the byte-level readers (parsers/tj/event-scanner.ts and its two
// users): events as a 1C server writes them, with the names that fill typed columns and values that test every rule,
// plus now and then what sends an event to the string path (text after a closing quote, names with `#` or of digits
// only, garbage, an unclosed quote, an invalid byte).
import fc from 'fast-check';

const NAMES = [
  'p:processName', 'Usr', 't:applicationName', 'AppID', 't:computerName', 'Context', 'DBMS', 'DataBase', 'Func', 'Sql', 'Prm',
  'Locks', 'DeadlockConnectionIntersections', 'Exception', 'Descr', 't:connectID', 'SessionID', 't:clientID', 'OSThread', 'Rows',
  'RowsAffected', 'Memory', 'MemoryPeak', 'CpuTime', 'InBytes', 'OutBytes', 'callWait', 'dbpid', 'Trans', 'Regions',
  'WaitConnections', 'process', 'OSThread', 'Custom', 'Имя', '__proto__', 'a#2', '12', 'x y', 'Usr#2',
];
const TEXT = ['', 'a', 'Иванов', ' x ', '\u00a0pad\u2003', '\ufeffbom', 'line\nnext', 'crlf\r\nnext', '\n\n  \n', "it's", 'say "hi"',
  'a,b', '0', '-5', '-', '007', '12345678901234567', '123456789012345678901', '18446744073709551616', '4294967296', ' 1, 2 ,3',
  'R1.X, R2.Y', 'Ссылка.Заказ,Регистр', '1,,2', '\u2028sep\u2029', 'tab\there', 'Модуль.А : 1 : X();\n\tМодуль.Б : 2', 'C:\\path',
  '\u0001\u001f\u007f', '😀'];

const value = fc.oneof(
  fc.constantFrom(...TEXT),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -1e6, max: 1e12 }).map(String),
  fc.constantFrom(...TEXT).chain((a) => fc.constantFrom(...TEXT).map((b) => `${a}${b}`)),
);

/**
 * One property as a 1C server writes it: unquoted when it can be, else quoted with the quote doubled inside. Text
 * after a closing quote and names with `#` or of digits only send an event to the string path: kept rare, so most
 * events exercise the byte readers themselves.
 */
const property = fc.tuple(fc.constantFrom(...NAMES, ...NAMES.slice(0, 32)), value, fc.constantFrom("'", '"', ''), fc.nat(9).map((n) => n === 0))
  .map(([name, v, quote, tail]) => {
    const needsQuote = /[,\n\r'"]/.test(v) || v === '';
    const q = quote || (needsQuote ? "'" : '');
    const body = q ? `${q}${v.replaceAll(q, q + q)}${q}` : v;
    return `${name}=${body}${tail && q ? 'tail' : ''}`;
  });

const event = fc.tuple(
  fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.boolean(), fc.integer({ min: 0, max: 999_999 }),
  fc.oneof({ weight: 9, arbitrary: fc.nat(10_000_000) }, { weight: 1, arbitrary: fc.constant(12345678901234567) }), fc.constantFrom('CALL', 'TLOCK', 'DBPOSTGRS', 'EXCP', 'Context', 'SDBL'),
  fc.nat(9), fc.array(property, { maxLength: 12 }),
).map(([mm, ss, eight, frac, dur, name, depth, props]) => {
  const f = eight ? String(frac % 10000).padStart(4, '0') : String(frac).padStart(6, '0');
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}.${f}-${dur},${name},${depth}${props.map((p) => `,${p}`).join('')}`;
});

const line = fc.oneof(
  { weight: 12, arbitrary: event },
  { weight: 1, arbitrary: fc.constantFrom('garbage line', '', '   ', "00:01.000001-1,CALL,1,Context='never closed") },
);

/** A journal's bytes: events and the odd bad line, LF or CRLF, with or without a BOM, now and then an invalid byte. */
export const tjJournal = fc.tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean())
  .map(([lines, eol, bom, invalid]) => {
    const text = Buffer.from(`${bom ? '\ufeff' : ''}${lines.join(eol)}${eol}`);
    if (!invalid) return text;
    const bad = Buffer.from(text);
    bad[Math.floor(bad.length / 2)] = 0xff;
    return bad;
  });

/** `bytes` cut at `cuts` (taken modulo its length, in any order). */
export function cutAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) { out.push(bytes.subarray(from, c)); from = c; }
  return out;
}
