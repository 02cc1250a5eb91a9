// An append-only byte window addressed by absolute file offsets: appends are amortised O(1), so an
// event of hundreds of megabytes arriving in 1 MiB chunks is copied a bounded number of times.

/** A window this small is kept whatever it holds. */
const SHRINK_ABOVE = 64 * 1024;

export class GrowableBuffer {
  bytes: Buffer = Buffer.alloc(0);
  /** Absolute offset of bytes[0]. */
  start = 0;
  private length = 0;
  /** The offset below which nothing is needed any more (the last `discardBefore`), even while those bytes are kept. */
  private liveFrom = 0;

  get end(): number {
    return this.start + this.length;
  }

  reset(origin: number): void {
    this.bytes = Buffer.alloc(0);
    this.start = origin;
    this.length = 0;
    this.liveFrom = origin;
  }

  append(chunk: Buffer): void {
    const needed = this.length + chunk.length;
    if (needed > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2, 64 * 1024));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    chunk.copy(this.bytes, this.length);
    this.length = needed;
  }

  byteAt(abs: number): number {
    return this.bytes[abs - this.start] as number;
  }

  /** A view of [from, to); valid until the next append or discard. */
  slice(from: number, to: number): Buffer {
    return this.bytes.subarray(from - this.start, to - this.start);
  }

  /**
   * Gives back a window much larger than what it still needs: reading a 1 MiB chunk grows it to 2 MiB, and a file
   * followed between reads needs only its last unfinished event (docs/write-path.md §7). What is needed starts at
   * the last `discardBefore`, not at the bytes it left in place: a followed file's window otherwise carried up to
   * a megabyte of read events from read to read (30 live rphost files: ~31 MiB of windows, bench/memory-and-soak.md).
   */
  shrink(): void {
    const live = this.end - this.liveFrom;
    if (this.bytes.length <= SHRINK_ABOVE || live * 4 > this.bytes.length) return;
    const kept = Buffer.allocUnsafe(live);
    this.bytes.copy(kept, 0, this.liveFrom - this.start, this.length);
    this.bytes = kept;
    this.start = this.liveFrom;
    this.length = live;
  }

  /** Forgets bytes before `abs`, moving the rest to the front once the dead prefix is large. */
  discardBefore(abs: number): void {
    const dead = abs - this.start;
    if (dead <= 0) return;
    this.liveFrom = abs;
    if (dead === this.length) {
      this.start = abs;
      this.length = 0;
      return;
    }
    if (dead < 1024 * 1024 && dead * 2 < this.bytes.length) return;
    this.bytes.copy(this.bytes, 0, dead, this.length);
    this.start = abs;
    this.length -= dead;
  }
}
