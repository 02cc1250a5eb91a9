// NDJSON lines gathered as UTF-8 bytes in one growing Buffer, handed to stdout a large piece at a time: joining
// strings per 64 KiB and a write (and an await) per batch of lines cost more than the lines themselves (`parse pg`:
// 1.5 s of JSON.stringify, 1.1 s of garbage collection in 4.2 s over a 100 MB log).
//
// Records are printed by JSON.stringify itself, so a line is `${JSON.stringify(record)}\n` by construction. (A JSON
// writer in JS was tried: no faster on atop records, a third slower on pg records, whose long strings V8 escapes
// natively.) TJ events are written from their bytes instead (tj-event-json.ts), which is where the time went.

export class NdjsonBuffer {
  /** The bytes written so far are `buf[0, pos)`; writers that write bytes themselves `reserve` first. */
  buf: Buffer;
  pos = 0;

  constructor(private readonly capacity = 1 << 20) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /**
   * Hands over the bytes written so far and starts a fresh buffer (a stream may still hold the old one), as large as
   * this piece was: the next is likely as large, and growing 1 → 2 → 4 MiB per chunk of a pg log (3.7 MB of NDJSON
   * per MiB) was a copy and an allocation more each time.
   */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(Math.max(this.capacity, this.pos + (this.pos >> 3)));
    this.pos = 0;
    return out;
  }

  /** Text as UTF-8, as Buffer#write encodes it. */
  utf8(text: string): void {
    // The exact size: reserving 3 bytes per character (the worst case) made 11 MB buffers for 3.7 MB of JSON.
    this.reserve(text.length < 4096 ? text.length * 3 : Buffer.byteLength(text));
    this.pos += this.buf.write(text, this.pos);
  }

  /** One line: `${JSON.stringify(record)}\n`. */
  record(record: unknown): void {
    this.utf8(JSON.stringify(record) ?? '');
    this.reserve(1);
    this.buf[this.pos++] = 0x0a;
  }

  /**
   * A line per record, as `record` writes them, from one JSON.stringify of the whole list: one native call instead
   * of thousands. The text of `r1,r2,…` is cut where one record ends and the next begins, `},{"K":` with K the
   * first key every record shares. That string can also occur inside a record (an array of objects starting with
   * K), so the cut is used only when it occurs exactly once per boundary; otherwise, or when a record is not a
   * plain object with that first key, each record is stringified alone.
   */
  records(list: readonly unknown[]): void {
    const key = list.length > 1 ? sharedFirstKey(list) : null;
    if (key === null) {
      for (const r of list) this.record(r);
      return;
    }
    const start = this.pos;
    this.utf8((JSON.stringify(list) as string).slice(1, -1));
    // The cut's comma becomes the line feed, in the bytes: the same length, so nothing moves.
    const cut = Buffer.from(`},{${JSON.stringify(key)}:`);
    const written = this.buf.subarray(start, this.pos);
    let cuts = 0;
    for (let i = written.indexOf(cut); i >= 0; i = written.indexOf(cut, i + cut.length)) {
      written[i + 1] = 0x0a;
      cuts++;
    }
    if (cuts !== list.length - 1) {
      this.pos = start;
      for (const r of list) this.record(r);
      return;
    }
    this.reserve(1);
    this.buf[this.pos++] = 0x0a;
  }
}

/**
 * K when every record's JSON surely starts with `{"K":`: each is a plain object without toJSON whose first own key
 * is K and holds a value JSON.stringify prints (a primitive other than undefined/bigint, or an object without
 * toJSON). Then each boundary between records holds the cut once. Null otherwise.
 */
function sharedFirstKey(list: readonly unknown[]): string | null {
  let shared: string | null = null;
  for (const r of list) {
    if (typeof r !== 'object' || r === null) return null;
    const proto = Object.getPrototypeOf(r) as unknown;
    if ((proto !== Object.prototype && proto !== null) || typeof (r as { toJSON?: unknown }).toJSON === 'function') return null;
    let first: string | null = null;
    for (const k in r) { first = k; break; }
    if (first === null || (shared !== null && first !== shared) || !Object.hasOwn(r, first)) return null;
    const v = (r as Record<string, unknown>)[first];
    const type = typeof v;
    if (type === 'undefined' || type === 'function' || type === 'symbol' || type === 'bigint') return null;
    if (type === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') return null;
    shared = first;
  }
  return shared;
}
