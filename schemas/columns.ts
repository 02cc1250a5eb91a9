// Column types of perfpipe's tables, each one thing in three forms: the ClickHouse type as the DDL writes it, the
// zod type of the value in a row object, and its RowBinary encoding. A table's layout (`tableLayout`) is an
// ordered list of them, so its zod row schema, its insert column list and its byte form cannot drift apart;
// schemas/ddl-agreement.test.ts holds each layout against the table ClickHouse actually has.
import { z } from 'zod';
import { type RowBinaryReader, RowBinaryWriter } from './row-binary.js';

export interface ColumnType<T> {
  /** The type as `DESCRIBE TABLE` prints it (codecs and defaults aside). */
  readonly ch: string;
  readonly zod: z.ZodType<T>;
  write(w: RowBinaryWriter, value: T): void;
  read(r: RowBinaryReader): T;
  skip(r: RowBinaryReader): void;
}

const uint = (bits: 8 | 16 | 32): ColumnType<number> => ({
  ch: `UInt${bits}`,
  zod: z.number().int().nonnegative().max(2 ** bits - 1),
  write: bits === 8 ? (w, v) => w.u8(v) : bits === 16 ? (w, v) => w.u16(v) : (w, v) => w.u32(v),
  read: bits === 8 ? (r) => r.u8() : bits === 16 ? (r) => r.u16() : (r) => r.u32(),
  skip: (r) => r.skip(bits / 8),
});

/** `YYYY-MM-DD hh:mm:ss.fff[fff]` (UTC) → ticks of 10^-digits s since the epoch, by arithmetic (no Date parsing). */
function parseDateTime64(text: string, digits: 3 | 6): number {
  const n = (from: number, len: number): number => {
    let v = 0;
    for (let i = from; i < from + len; i++) v = v * 10 + text.charCodeAt(i) - 48;
    return v;
  };
  const seconds = daysFromCivil(n(0, 4), n(5, 2), n(8, 2)) * 86400 + n(11, 2) * 3600 + n(14, 2) * 60 + n(17, 2);
  return seconds * 10 ** digits + n(20, digits);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function formatDateTime64(ticks: number, digits: 3 | 6): string {
  const scale = 10 ** digits;
  const seconds = Math.floor(ticks / scale);
  const frac = String(ticks - seconds * scale).padStart(digits, '0');
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')}.${frac}`;
}

const U64_DIGITS = /^\d+$/;

export const col = {
  string: (): ColumnType<string> => ({
    ch: 'String', zod: z.string(),
    write: (w, v) => w.string(v), read: (r) => r.string(), skip: (r) => r.skipString(),
  }),
  /** Same bytes as String: RowBinary carries LowCardinality values as plain strings. */
  lowCardinality: (): ColumnType<string> => ({ ...col.string(), ch: 'LowCardinality(String)' }),
  uint8: () => uint(8),
  uint16: () => uint(16),
  uint32: () => uint(32),
  /** A safe integer, or decimal digits for values beyond 2^53 (1C ids are 64-bit). */
  uint64: (): ColumnType<number | string> => ({
    ch: 'UInt64', zod: z.union([z.number().int().nonnegative(), z.string().regex(U64_DIGITS)]),
    write: (w, v) => w.u64(v), read: (r) => r.u64(), skip: (r) => r.skip(8),
  }),
  /** UInt64 whose values stay below 2^53 (offsets, lengths, durations): a plain number in the row. */
  safeUint64: (): ColumnType<number> => ({
    ch: 'UInt64', zod: z.number().int().nonnegative(),
    write: (w, v) => w.u64(v), read: (r) => r.u64() as number, skip: (r) => r.skip(8),
  }),
  int16: (): ColumnType<number> => ({
    ch: 'Int16', zod: z.number().int().min(-32768).max(32767),
    write: (w, v) => w.i16(v), read: (r) => r.i16(), skip: (r) => r.skip(2),
  }),
  int64: (): ColumnType<number> => ({
    ch: 'Int64', zod: z.number().int(),
    write: (w, v) => w.i64(v), read: (r) => r.i64(), skip: (r) => r.skip(8),
  }),
  float64: (): ColumnType<number> => ({
    ch: 'Float64', zod: z.number(),
    write: (w, v) => w.f64(v), read: (r) => r.f64(), skip: (r) => r.skip(8),
  }),
  bool: (): ColumnType<boolean> => ({
    ch: 'Bool', zod: z.boolean(),
    write: (w, v) => w.u8(v ? 1 : 0), read: (r) => r.u8() !== 0, skip: (r) => r.skip(1),
  }),
  /** UTC time as text `YYYY-MM-DD hh:mm:ss.fff` (3 digits) or `.ffffff` (6), stored as Int64 ticks. */
  dateTime64: (digits: 3 | 6): ColumnType<string> => ({
    ch: `DateTime64(${digits}, 'UTC')`,
    zod: z.string().regex(digits === 3 ? /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/ : /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
    write: (w, v) => w.i64(parseDateTime64(v, digits)),
    read: (r) => formatDateTime64(r.i64(), digits),
    skip: (r) => r.skip(8),
  }),
  nullable: <T>(inner: ColumnType<T>): ColumnType<T | null> => ({
    ch: `Nullable(${inner.ch})`, zod: inner.zod.nullable(),
    write: (w, v) => {
      if (v === null) { w.u8(1); return; }
      w.u8(0);
      inner.write(w, v);
    },
    read: (r) => (r.u8() === 0 ? inner.read(r) : null),
    skip: (r) => { if (r.u8() === 0) inner.skip(r); },
  }),
  array: <T>(inner: ColumnType<T>): ColumnType<T[]> => ({
    ch: `Array(${inner.ch})`, zod: z.array(inner.zod),
    write: (w, v) => {
      w.varint(v.length);
      for (const x of v) inner.write(w, x);
    },
    read: (r) => {
      const n = r.varint();
      const out: T[] = [];
      for (let i = 0; i < n; i++) out.push(inner.read(r));
      return out;
    },
    skip: (r) => { for (let n = r.varint(); n > 0; n--) inner.skip(r); },
  }),
  /** Map(K, V) from a plain object in its key order. */
  map: <V>(key: ColumnType<string>, value: ColumnType<V>): ColumnType<Record<string, V>> => ({
    ch: `Map(${key.ch}, ${value.ch})`, zod: z.record(z.string(), value.zod),
    write: (w, v) => {
      const keys = Object.keys(v);
      w.varint(keys.length);
      for (const k of keys) {
        key.write(w, k);
        value.write(w, v[k] as V);
      }
    },
    read: (r) => {
      const out: Record<string, V> = Object.create(null) as Record<string, V>;
      for (let n = r.varint(); n > 0; n--) {
        const k = key.read(r);
        Object.defineProperty(out, k, { value: value.read(r), enumerable: true, writable: true, configurable: true });
      }
      return out;
    },
    skip: (r) => { for (let n = r.varint(); n > 0; n--) { key.skip(r); value.skip(r); } },
  }),
};

type Shape = Record<string, ColumnType<unknown>>;
type RowOf<S extends Shape> = { [K in keyof S]: S[K] extends ColumnType<infer T> ? T : never };

/** One table's columns in insert order, its zod row schema and its RowBinary form. */
export interface TableLayout<S extends Shape = Shape> {
  table: string;
  /** Names and ClickHouse types in insert order. */
  columns: ReadonlyArray<readonly [string, string]>;
  names: readonly string[];
  /** `name Type, …`: what a reader of the bytes needs to know (file()'s structure argument). */
  structure: string;
  /** Which columns in which order with which types: a sink refuses rows of a layout it does not know. */
  id: string;
  schema: z.ZodObject<{ [K in keyof S]: S[K]['zod'] }, z.core.$strict>;
  writeRow(w: RowBinaryWriter, row: RowOf<S>): void;
  /** Rows encoded into one buffer. */
  encode(rows: readonly RowOf<S>[]): Buffer;
  /** Walks one row (checking every length against the end of the body). */
  skipRow(r: RowBinaryReader): void;
  /** Reads one row back into an object. */
  readRow(r: RowBinaryReader): RowOf<S>;
  /**
   * A reader of some columns: each call reads one row, putting the named columns' values into `out` in the order
   * of `names` and skipping the rest (throws at creation for an unknown name: a typo should fail at start-up).
   */
  picker(names: ReadonlyArray<keyof S & string>): (r: RowBinaryReader, out: unknown[]) => void;
  /** Index of a column in insert order (throws for an unknown name: a typo should fail at start-up). */
  indexOf(name: keyof S & string): number;
  /** The column types in insert order. */
  types: ReadonlyArray<ColumnType<unknown>>;
}

export function tableLayout<S extends Shape>(table: string, shape: S): TableLayout<S> {
  const names = Object.keys(shape);
  const types = names.map((n) => shape[n] as ColumnType<unknown>);
  const columns = names.map((n, i) => [n, (types[i] as ColumnType<unknown>).ch] as const);
  const zodShape = Object.fromEntries(names.map((n, i) => [n, (types[i] as ColumnType<unknown>).zod]));
  const id = `${table}/${fnv1a32(columns.map(([n, t]) => `${n} ${t}`).join(','))}`;
  const writeRow = (w: RowBinaryWriter, row: RowOf<S>): void => {
    const r = row as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) (types[i] as ColumnType<unknown>).write(w, r[names[i] as string]);
  };
  return {
    table, columns, names, id, types, structure: columns.map(([n, t]) => `${n} ${t}`).join(', '),
    schema: z.strictObject(zodShape) as TableLayout<S>['schema'],
    writeRow,
    encode(rows) {
      const w = new RowBinaryWriter(Math.max(1024, rows.length * 256));
      for (const row of rows) writeRow(w, row);
      return w.finish();
    },
    skipRow(r) {
      for (const t of types) t.skip(r);
    },
    readRow(r) {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) out[names[i] as string] = (types[i] as ColumnType<unknown>).read(r);
      return out as RowOf<S>;
    },
    picker(wanted) {
      const slot = names.map((n) => wanted.indexOf(n));
      for (const w of wanted) if (!names.includes(w)) throw new Error(`${table} has no column ${w}`);
      return (r, out) => {
        for (let i = 0; i < types.length; i++) {
          const t = types[i] as ColumnType<unknown>;
          const at = slot[i] as number;
          if (at < 0) t.skip(r);
          else out[at] = t.read(r);
        }
      };
    },
    indexOf(name) {
      const i = names.indexOf(name);
      if (i < 0) throw new Error(`${table} has no column ${name}`);
      return i;
    },
  };
}

/** A short stable hash of a layout's text (FNV-1a, 32 bits, hex). */
function fnv1a32(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
