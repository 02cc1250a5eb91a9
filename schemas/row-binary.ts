// RowBinary, ClickHouse's row-wise binary format: the bytes a row travels in from the process that parsed its
// event to the store (docs/write-path.md). Numbers are little-endian and fixed-width, strings and arrays carry
// an unsigned LEB128 length, Nullable a leading 0/1 byte. Writing it is a copy per value (no escaping, no text
// form of numbers), reading it back is a walk over lengths: both cheap enough for every row.

const TWO_32 = 4294967296;

/**
 * Buffers that writers handed out and were given back (their segment was acknowledged), for any writer's next segment.
 * Shared, so that the buffers of a file read to its end serve the next file instead of waiting for a garbage
 * collection beside the next file's fresh ones (docs/write-path.md §7). At most `max` are kept; the oldest goes first.
 */
export class SpareBuffers {
  private readonly spares: Buffer[] = [];

  constructor(private readonly max = 4) {}

  /** The smallest spare of `min` to `most` bytes, taken out; null when none fits. */
  take(min: number, most: number): Buffer | null {
    let best = -1;
    for (let i = 0; i < this.spares.length; i++) {
      const n = (this.spares[i] as Buffer).length;
      if (n >= min && n <= most && (best < 0 || n < (this.spares[best] as Buffer).length)) best = i;
    }
    return best < 0 ? null : (this.spares.splice(best, 1)[0] as Buffer);
  }

  give(buf: Buffer): void {
    this.spares.push(buf);
    if (this.spares.length > this.max) this.spares.shift();
  }

  /** Bytes kept. */
  get bytes(): number {
    return this.spares.reduce((a, b) => a + b.length, 0);
  }
}

/** The process's spare buffers (one thread's; a worker thread has its own). */
export const SHARED_SPARES = new SpareBuffers();

/** Writers whose segments reach this size take and give spares; scratch writers (a value, a constant) allocate. */
const SHARED_FROM_BYTES = 256 * 1024;

const NO_BYTES = Buffer.alloc(0);

/**
 * A growable output buffer with the writes RowBinary needs. `finish()` hands the bytes over and starts anew; the
 * next buffer is taken only when the next byte is written, so a writer with nothing to write holds no buffer (a
 * daemon follows dozens of files at once, docs/write-path.md §7).
 */
export class RowBinaryWriter {
  buf: Buffer = NO_BYTES;
  pos = 0;
  /** What the last segment needed: what the next buffer is sized for. */
  private largest: number;
  /** Whether a segment was handed out yet: until then no size is known and any spare as large as `initial` fits. */
  private sized = false;

  constructor(private readonly initial = 64 * 1024, private readonly spares: SpareBuffers = SHARED_SPARES) {
    // `initial` is also what the buffer shrinks back to once segments are small again (finish).
    this.largest = initial;
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.buf.length === 0) {
      this.buf = this.nextBuffer(n);
      return;
    }
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length + (this.buf.length >> 1), this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /**
   * A buffer as large as the last segment plus an eighth. A spare that holds a segment as large as the last one is
   * taken even when it is short of the eighth on top (segments of a file differ by a few per cent): requiring the
   * full size made a fresh buffer beside the spare on most segments, and four RowBinary buffers were alive instead
   * of two (45 against 27 MiB of ArrayBuffers in a 1 GB ingest, docs/write-path.md §7). Spares more than twice
   * the size are left for a writer they fit.
   */
  private nextBuffer(n: number): Buffer {
    const wanted = Math.max(n, this.largest + (this.largest >> 3));
    if (wanted >= SHARED_FROM_BYTES) {
      const spare = this.spares.take(Math.max(n, this.largest), this.sized ? 2 * wanted : Number.POSITIVE_INFINITY);
      if (spare !== null) return spare;
    }
    return Buffer.allocUnsafe(wanted);
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf[this.pos++] = v;
  }

  u16(v: number): void {
    this.reserve(2);
    this.buf[this.pos++] = v & 0xff;
    this.buf[this.pos++] = (v >>> 8) & 0xff;
  }

  u32(v: number): void {
    this.reserve(4);
    this.buf.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
  }

  i16(v: number): void {
    this.u16(v & 0xffff);
  }

  /** An unsigned 64-bit integer: a safe integer, or decimal digits for values beyond 2^53. */
  u64(v: number | string): void {
    this.reserve(8);
    if (typeof v === 'string') {
      this.buf.writeBigUInt64LE(BigInt(v), this.pos);
    } else {
      const lo = v % TWO_32;
      this.buf.writeUInt32LE(lo, this.pos);
      this.buf.writeUInt32LE((v - lo) / TWO_32, this.pos + 4);
    }
    this.pos += 8;
  }

  /** A signed 64-bit integer within ±2^53 (two's complement from two 32-bit halves, no BigInt). */
  i64(v: number): void {
    this.reserve(8);
    const hi = Math.floor(v / TWO_32);
    this.buf.writeUInt32LE(v - hi * TWO_32, this.pos);
    this.buf.writeInt32LE(hi, this.pos + 4);
    this.pos += 8;
  }

  f64(v: number): void {
    this.reserve(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  varint(n: number): void {
    this.reserve(10);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  /** A string as UTF-8 with its byte length in front. */
  string(s: string): void {
    const n = s.length;
    if (n === 0) { this.u8(0); return; }
    if (n <= 42) {
      // At most 3 bytes per UTF-16 unit: 126 bytes fit a one-byte length, written after the text.
      this.reserve(1 + n * 3);
      const written = this.buf.write(s, this.pos + 1, 'utf8');
      this.buf[this.pos] = written;
      this.pos += 1 + written;
      return;
    }
    const bytes = Buffer.byteLength(s, 'utf8');
    this.varint(bytes);
    this.reserve(bytes);
    this.pos += this.buf.write(s, this.pos, bytes, 'utf8');
  }

  /** `src[start, end)` as a string value: length, then the bytes as they are. */
  stringBytes(src: Uint8Array, start: number, end: number): void {
    this.varint(end - start);
    this.raw(src, start, end);
  }

  /** Bytes copied as they are (no length). */
  raw(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    if (n < 32) {
      // A native copy costs more than a short loop (most TJ values are a few bytes).
      const b = this.buf;
      let p = this.pos;
      for (let i = start; i < end; i++) b[p++] = src[i] as number;
    } else {
      this.buf.set(src.subarray(start, end), this.pos);
    }
    this.pos += n;
  }

  /**
   * The bytes written since the last finish, handed over as they are; the next segment's buffer is sized from this
   * one. Growing by doubling left up to twice each segment's size alive per segment in flight, and copying out to
   * an exact size cost a copy per segment; a buffer sized from the last ones is rarely grown and never much larger
   * than what it holds. After a small segment it shrinks back to `initial`.
   */
  finish(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    if (this.pos > 0) {
      this.largest = this.pos < this.largest / 4 ? this.initial : Math.max(this.pos, this.initial);
      this.sized = true;
    }
    this.buf = NO_BYTES;
    this.pos = 0;
    return out;
  }

  /**
   * Takes back a buffer `finish` handed out, once nothing reads it any more (its segment was acknowledged), for a
   * later segment of any writer: a backfill then writes into the same few buffers instead of allocating megabytes
   * per segment, which left the process's malloc heap fragmented (peak RSS of a 1 GB ingest ~60 MiB higher,
   * docs/write-path.md).
   */
  recycle(body: Buffer): void {
    if (body.byteOffset !== 0 || body.buffer.byteLength < SHARED_FROM_BYTES) return;
    this.spares.give(Buffer.from(body.buffer, 0, body.buffer.byteLength));
  }
}

/** Thrown when bytes end early or hold an impossible length: the body is not what its header says. */
export class RowBinaryError extends Error {
  constructor(message: string, readonly position: number) {
    super(message);
    this.name = 'RowBinaryError';
  }
}

/** Reads RowBinary values from `buf[pos, end)`; every read checks the bound. */
export class RowBinaryReader {
  pos: number;

  constructor(readonly buf: Buffer, pos = 0, readonly end = buf.length) {
    this.pos = pos;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new RowBinaryError(`needs ${n} bytes at byte ${this.pos}, only ${this.end - this.pos} left`, this.pos);
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++] as number;
  }

  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }

  i16(): number {
    this.need(2);
    const v = this.buf.readInt16LE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  /** A safe integer, or decimal digits beyond 2^53. */
  u64(): number | string {
    this.need(8);
    const lo = this.buf.readUInt32LE(this.pos);
    const hi = this.buf.readUInt32LE(this.pos + 4);
    this.pos += 8;
    if (hi < 0x200000) return hi * TWO_32 + lo;
    return (BigInt(hi) * 4294967296n + BigInt(lo)).toString();
  }

  i64(): number {
    this.need(8);
    const lo = this.buf.readUInt32LE(this.pos);
    const hi = this.buf.readInt32LE(this.pos + 4);
    this.pos += 8;
    return hi * TWO_32 + lo;
  }

  f64(): number {
    this.need(8);
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  varint(): number {
    let n = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.u8();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
    }
    throw new RowBinaryError(`a length at byte ${this.pos} runs over 8 bytes`, this.pos);
  }

  string(): string {
    const n = this.varint();
    this.need(n);
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  skipString(): void {
    this.skip(this.varint());
  }
}
