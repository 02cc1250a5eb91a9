// How a result in a given output format can be streamed. The engine's streaming API writes each chunk as if it were
// the whole answer (measured: CSVWithNames repeats its header line in every chunk of 65,409 rows, JSON would repeat
// its whole document). So:
// - row formats without a header (TSV, CSV, JSONEachRow, RowBinary, Native, whose header is per block by design…)
//   are sent chunk after chunk as they come;
// - row formats with a header (…WithNames, …WithNamesAndTypes) keep the first chunk's header and lose the others';
// - any other format (JSON, XML, Pretty…, Parquet, Arrow…: one document with a beginning and an end; Values, whose
//   rows are joined by commas) is written by
//   the engine to a spool file with INTO OUTFILE, then sent; memory stays bounded, the first byte waits for the end.

export type ResultStreaming =
  | { kind: 'rows' }
  | { kind: 'header'; headerLength: (firstChunk: Buffer) => number }
  | { kind: 'document' };

/** Formats whose answer is their rows one after another, with nothing before or after. */
const ROWS = new Set([
  'tabseparated', 'tsv', 'tabseparatedraw', 'tsvraw', 'raw', 'csv', 'jsoneachrow', 'ndjson', 'jsonlines', 'jsonstringseachrow',
  'jsoncompacteachrow', 'jsoncompactstringseachrow', 'jsoneachrowwithprogress', 'jsonstringseachrowwithprogress', 'rowbinary',
  'native', 'lineasstring', 'rawblob', 'tskv', 'bsoneachrow', 'msgpack', 'null', 'customseparated', 'protobuf',
]);

/** The byte length of `lines` lines at the start of `chunk`, line feeds included. */
const lineHeader = (lines: number) => (chunk: Buffer): number => {
  let at = 0;
  for (let i = 0; i < lines; i++) {
    const nl = chunk.indexOf(0x0a, at);
    if (nl < 0) return chunk.length;
    at = nl + 1;
  }
  return at;
};

/** RowBinaryWithNames(AndTypes): a varint count, then that many (or twice as many) length-prefixed strings. */
const binaryHeader = (stringsPerColumn: number) => (chunk: Buffer): number => {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; at < chunk.length; shift += 7) {
      const b = chunk[at++] as number;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) break;
    }
    return value;
  };
  const columns = varint();
  for (let i = 0; i < columns * stringsPerColumn; i++) {
    const length = varint(); // read first: `at += varint()` would add to the position before the varint
    at += length;
  }
  return Math.min(at, chunk.length);
};

export function streamingOf(format: string): ResultStreaming {
  const f = format.toLowerCase();
  if (ROWS.has(f)) return { kind: 'rows' };
  const withTypes = f.endsWith('withnamesandtypes');
  const base = withTypes ? f.slice(0, -'withnamesandtypes'.length) : f.endsWith('withnames') ? f.slice(0, -'withnames'.length) : null;
  if (base !== null && ROWS.has(base)) {
    return { kind: 'header', headerLength: base === 'rowbinary' ? binaryHeader(withTypes ? 2 : 1) : lineHeader(withTypes ? 2 : 1) };
  }
  return { kind: 'document' };
}
