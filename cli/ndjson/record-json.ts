// Records of one shape (the same keys in the same order, as a parser's records are) written as the bytes of
// JSON.stringify(record), without JSON.stringify: its cost is per property, not per byte, and a `parse pg` record
// has 44 properties, most of them null (profile of `parse pg` over the 100 MB bench log: 1.4 s of 3.6 s in
// JSON.stringify, ~2.6 µs a record; the all-null properties cost as much as the strings).
//
// Each key's bytes (`,"key":`) are made once, when the writer learns the shape from a record. The fields that hold
// the same primitive as in the record before (nulls, the severity, the user, the origin's file…) are copied from
// that record's bytes, a run of them in one copyWithin; only the others are written. Nested plain objects get a
// writer of their own, other objects and non-empty arrays go through JSON.stringify (few records have them).
// Anything JSON.stringify would print differently from this walk (a toJSON method, an undefined or function value,
// a key the shape does not have) makes `line` print the record with JSON.stringify instead.
import { writeJsonNumber, writeJsonString } from './json-text.js';
import type { NdjsonBuffer } from './ndjson-buffer.js';

/** Consecutive records of another shape after which the writer learns the shape anew. */
const RELEARN_AFTER = 8;
/** Nesting below which objects are left to JSON.stringify (which also reports a cycle as it would). */
const MAX_DEPTH = 8;
const UNSEEN = Symbol('unseen');

function writeAscii(out: NdjsonBuffer, text: string): void {
  out.reserve(text.length);
  for (let i = 0; i < text.length; i++) out.buf[out.pos++] = text.charCodeAt(i);
}

const hasToJson = (o: object): boolean => typeof (o as { toJSON?: unknown }).toJSON === 'function';

export class RecordJsonWriter {
  private keys: string[] = [];
  private heads: Uint8Array[] = [];
  private nested: (RecordJsonWriter | undefined)[] = [];
  /** Where the previous record's field i began in `copyFrom` (its key included); the last entry: its closing brace. */
  private at = new Int32Array(1);
  private values: unknown[] = [];
  /** The buffer the previous record was written to; null when its bytes are not to be copied. */
  private copyFrom: Buffer | null = null;
  private learned = false;
  private misses = 0;

  constructor(private readonly depth = 0) {}

  /** Writes `${JSON.stringify(record)}\n`. */
  line(record: object, out: NdjsonBuffer): void {
    const start = out.pos;
    if (this.write(record, out)) {
      out.reserve(1);
      out.buf[out.pos++] = 0x0a;
      return;
    }
    out.pos = start;
    this.forget();
    out.record(record);
  }

  /** Writes the JSON of a plain object of the shape; false when it could not (out.pos then means nothing). */
  private write(o: object, out: NdjsonBuffer): boolean {
    if (Object.getPrototypeOf(o) !== Object.prototype || hasToJson(o)) return false;
    if (!this.learned) this.learn(o);
    const { keys, heads, at, values } = this;
    const n = keys.length;
    const copy = this.copyFrom === out.buf; // grown buffers keep their bytes but are not worth tracking
    let run = -1; // first field of a run equal to the previous record's, still to copy
    let i = 0;
    for (const k in o) {
      if (i === n || k !== keys[i]) return this.miss();
      const v = (o as Record<string, unknown>)[k];
      if (copy && v === values[i] && (typeof v !== 'object' || v === null)) {
        if (run < 0) run = i;
        i++;
        continue;
      }
      if (run >= 0) { this.copyRun(out, run, i); run = -1; }
      at[i] = out.pos;
      values[i] = v;
      const head = heads[i] as Uint8Array;
      out.reserve(head.length + 4);
      out.buf.set(head, out.pos);
      out.pos += head.length;
      if (!this.value(v, i, out)) return this.miss();
      i++;
    }
    if (i !== n) return this.miss();
    if (run >= 0) this.copyRun(out, run, n);
    at[n] = out.pos;
    out.reserve(2);
    if (n === 0) out.buf[out.pos++] = 0x7b;
    out.buf[out.pos++] = 0x7d;
    this.copyFrom = out.buf;
    this.misses = 0;
    return true;
  }

  /** Copies the previous record's fields [from, to) and notes where they now begin. */
  private copyRun(out: NdjsonBuffer, from: number, to: number): void {
    const { at } = this;
    const src = at[from] as number;
    const len = (at[to] as number) - src;
    const shift = out.pos - src;
    out.reserve(len);
    out.buf.copyWithin(out.pos, src, src + len);
    out.pos += len;
    for (let j = from; j < to; j++) at[j] = (at[j] as number) + shift;
  }

  private value(v: unknown, i: number, out: NdjsonBuffer): boolean {
    switch (typeof v) {
      case 'string': writeJsonString(out, v); return true;
      case 'number': writeJsonNumber(out, v); return true;
      case 'boolean': writeAscii(out, v ? 'true' : 'false'); return true;
      case 'object': {
        if (v === null) { writeAscii(out, 'null'); return true; }
        if (hasToJson(v)) return false; // called with the key here, with '' alone: left to the record's stringify
        if (Array.isArray(v) && v.length === 0) { writeAscii(out, '[]'); return true; }
        if (this.depth < MAX_DEPTH && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype) {
          const w = this.nested[i] ??= new RecordJsonWriter(this.depth + 1);
          const start = out.pos;
          if (w.write(v, out)) return true;
          out.pos = start;
          w.forget();
        }
        out.utf8(JSON.stringify(v)); // without a toJSON of its own, v prints alone as it does inside the record
        return true;
      }
      default: return false; // undefined, a function or a symbol: JSON leaves the key out; a bigint: JSON throws
    }
  }

  private learn(o: object): void {
    this.keys = Object.keys(o);
    const n = this.keys.length;
    this.heads = this.keys.map((k, i) => Buffer.from(`${i === 0 ? '{' : ','}${JSON.stringify(k)}:`));
    this.nested = [];
    this.at = new Int32Array(n + 1);
    this.values = new Array<unknown>(n).fill(UNSEEN);
    this.copyFrom = null;
    this.learned = true;
  }

  private miss(): false {
    if (++this.misses >= RELEARN_AFTER) {
      this.learned = false;
      this.misses = 0;
    }
    return false;
  }

  /** The bytes last written may be overwritten: copy nothing from them. */
  private forget(): void {
    this.copyFrom = null;
    for (const w of this.nested) w?.forget();
  }
}
