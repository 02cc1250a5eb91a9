// The Native format at the revision a client asks for with client_protocol_version (clickhouse-go sends its TCP
// protocol revision and decodes what comes at that revision). The embedded engine writes Native at revision 0, the
// plain form, and takes no setting to change that; a server at a client's revision adds, per block, a BlockInfo
// (is_overflows, bucket_num) and, per column, a byte saying its serialization is the default one (revision 54454 and
// later). Both are inserted here. Finding where a column's data ends means reading its type: every type perfpipe's
// tables and ordinary queries produce is known below; Variant, Dynamic, JSON and AggregateFunction states are not,
// and a result with one of them gets a clear error (docs/clickhouse-http.md §7).
import { chError } from './errors.js';

const WITH_BLOCK_INFO = 1;
const WITH_CUSTOM_SERIALIZATION = 54454;

const FIXED: Record<string, number> = {
  UInt8: 1, Int8: 1, Bool: 1, Enum8: 1, UInt16: 2, Int16: 2, Date: 2, Enum16: 2, BFloat16: 2, UInt32: 4, Int32: 4, Float32: 4,
  DateTime: 4, Date32: 4, IPv4: 4, Decimal32: 4, Time: 4, UInt64: 8, Int64: 8, Float64: 8, DateTime64: 8, Decimal64: 8, Time64: 8,
  UInt128: 16, Int128: 16, UUID: 16, IPv6: 16, Decimal128: 16, UInt256: 32, Int256: 32, Decimal256: 32,
};
const GEO: Record<string, string> = {
  Point: 'Tuple(Float64, Float64)', Ring: 'Array(Point)', LineString: 'Array(Point)', Polygon: 'Array(Ring)',
  MultiLineString: 'Array(LineString)', MultiPolygon: 'Array(Polygon)',
};

interface Type { name: string; args: string[] }

/** `Map(LowCardinality(String), String)` → { name: 'Map', args: ['LowCardinality(String)', 'String'] }. */
export function parseType(text: string): Type {
  const t = text.trim();
  const open = t.indexOf('(');
  if (open < 0 || !t.endsWith(')')) return { name: t, args: [] };
  const args: string[] = [];
  let depth = 0;
  let quote = false;
  let start = open + 1;
  for (let i = start; i < t.length - 1; i++) {
    const c = t[i];
    if (quote) { if (c === '\\') i++; else if (c === "'") quote = false; continue; }
    if (c === "'") quote = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) { args.push(t.slice(start, i).trim()); start = i + 1; }
  }
  args.push(t.slice(start, t.length - 1).trim());
  return { name: t.slice(0, open).trim(), args };
}

/** Thrown when the bytes end inside a block: the caller waits for more. */
class NeedMore extends Error {}

class Reader {
  constructor(readonly buf: Buffer, public at = 0) {}
  need(n: number): void { if (this.at + n > this.buf.length) throw new NeedMore(); }
  skip(n: number): void { this.need(n); this.at += n; }
  varint(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      this.need(1);
      const b = this.buf[this.at++] as number;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
    }
  }
  u64(): number { this.need(8); const v = Number(this.buf.readBigUInt64LE(this.at)); this.at += 8; return v; }
  string(): string { const n = this.varint(); this.need(n); const s = this.buf.toString('utf8', this.at, this.at + n); this.at += n; return s; }
}

/** Skips `rows` values of `type` in the Native format's bulk layout. */
function skipColumn(r: Reader, typeText: string, rows: number): void {
  const type = parseType(typeText);
  const { name, args } = type;
  if (GEO[name]) return skipColumn(r, GEO[name] as string, rows);
  if (name in FIXED) return r.skip((FIXED[name] as number) * rows);
  if (name === 'Decimal') { const p = Number(args[0]); return r.skip((p <= 9 ? 4 : p <= 18 ? 8 : p <= 38 ? 16 : 32) * rows); }
  if (name.startsWith('Interval')) return r.skip(8 * rows);
  if (name === 'Nothing') return r.skip(rows);
  if (name === 'String' || name === 'JSONString') { for (let i = 0; i < rows; i++) r.skip(r.varint()); return; }
  if (name === 'FixedString') return r.skip(Number(args[0]) * rows);
  if (name === 'Nullable') { r.skip(rows); return skipColumn(r, args[0] as string, rows); }
  if (name === 'SimpleAggregateFunction') return skipColumn(r, args[1] as string, rows);
  if (name === 'Tuple') { for (const a of args) skipColumn(r, a.replace(/^[A-Za-z_][\w]*\s+(?=[A-Z])/, ''), rows); return; }
  if (name === 'Array' || name === 'Map' || name === 'Nested') {
    let total = 0;
    for (let i = 0; i < rows; i++) total = r.u64();
    if (name === 'Array') return skipColumn(r, args[0] as string, total);
    for (const a of args) skipColumn(r, name === 'Nested' ? a.replace(/^[A-Za-z_][\w]*\s+/, '') : a, total);
    return;
  }
  if (name === 'LowCardinality') return skipLowCardinality(r, args[0] as string, rows);
  throw chError('NOT_IMPLEMENTED', `A column of type ${typeText} cannot be sent in the Native format at the revision this client asked for (client_protocol_version); ask for another format or cast the column`);
}

/**
 * A column's state prefixes, which come before any of its data: one key-serialization version (UInt64) for each
 * LowCardinality in the type, in the order of its nested streams (measured: Array(LowCardinality(String)) writes
 * the version, then the array's offsets, then the dictionary).
 */
function skipPrefixes(r: Reader, typeText: string): void {
  const { name, args } = parseType(typeText);
  if (GEO[name]) return skipPrefixes(r, GEO[name] as string);
  if (name === 'LowCardinality') { r.u64(); return; }
  if (name === 'Nullable' || name === 'Array') return skipPrefixes(r, args[0] as string);
  if (name === 'SimpleAggregateFunction') return skipPrefixes(r, args[1] as string);
  if (name === 'Tuple' || name === 'Map' || name === 'Nested') for (const a of args) skipPrefixes(r, a.replace(/^[A-Za-z_][\w]*\s+(?=[A-Z])/, ''));
}

/**
 * LowCardinality in bulk (its version already read with the prefixes): parts until all rows are read, each with its
 * flags, new dictionary keys (of the type without Nullable) when flagged, and its row indexes sized by the flags'
 * low byte.
 */
function skipLowCardinality(r: Reader, inner: string, rows: number): void {
  const keys = parseType(inner).name === 'Nullable' ? (parseType(inner).args[0] as string) : inner;
  for (let read = 0; read < rows;) {
    const flags = r.u64();
    if (flags & (1 << 9)) skipColumn(r, keys, r.u64());
    const n = r.u64();
    r.skip(n * ([1, 2, 4, 8][flags & 0xff] ?? 8));
    read += n;
  }
}

const BLOCK_INFO = Buffer.from([1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0]); // is_overflows = 0, bucket_num = -1, end

/** A function that turns revision-0 Native chunks into Native at `revision`, holding a block cut between chunks. */
export function createNativeReframer(revision: number): (chunk: Buffer) => Buffer {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const out: Buffer[] = [];
    let done = 0;
    for (;;) {
      if (done >= pending.length) break;
      const r = new Reader(pending, done);
      const parts: Buffer[] = [];
      try {
        const columns = r.varint();
        const rows = r.varint();
        if (revision >= WITH_BLOCK_INFO) parts.push(BLOCK_INFO);
        parts.push(pending.subarray(done, r.at));
        for (let i = 0; i < columns; i++) {
          const from = r.at;
          r.string();
          const type = r.string();
          parts.push(pending.subarray(from, r.at));
          if (revision >= WITH_CUSTOM_SERIALIZATION) parts.push(Buffer.from([0]));
          const dataFrom = r.at;
          if (rows > 0) {
            skipPrefixes(r, type);
            skipColumn(r, type, rows);
          }
          parts.push(pending.subarray(dataFrom, r.at));
        }
      } catch (error) {
        if (error instanceof NeedMore) break;
        throw error;
      }
      out.push(...parts);
      done = r.at;
    }
    pending = pending.subarray(done);
    return Buffer.concat(out);
  };
}
