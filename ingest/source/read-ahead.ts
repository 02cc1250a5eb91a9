// How far a process's sources may read ahead of what is stored: bytes read from files and not yet acknowledged
// downstream, summed over every file of every source of one pipeline. A file's tail encodes its rows as it reads
// (ingest/rows/), so each byte read ahead holds about 1.6 bytes of RowBinary until its segment is acknowledged.
// Without a bound, a daemon following thirty files that had fallen behind gathered a full segment in every file at
// once, besides the one each had in flight: 300-400 MiB of row buffers, where the store inserts one segment at a
// time (docs/write-path.md §7).
//
// A segment starts only when what it may hold fits: a tail about to read the first byte of a segment asks for as
// many bytes as the segment can take from what its file has now (at most segment_bytes), and waits while that does
// not fit beside what the other tails hold. Once started, a segment reads on to its end. Whatever holds the budget
// is a segment in flight (acknowledged in time) or one being gathered, which is cut once full or once its file has
// no more for now, so every waiter gets its turn; they are let in in the order they came. A segment larger than
// the whole budget starts when nothing else is held.
export class ReadAhead {
  private held = 0;
  private readonly waiting: Array<{ bytes: number; go: () => void }> = [];

  constructor(readonly limit: number) {}

  /** Bytes held: read or let in and not yet acknowledged, over every tail. */
  get bytes(): number {
    return this.held;
  }

  /**
   * Waits until `bytes` fit, then holds them for the caller (who gives them back through `change`). False when
   * `signal` aborted the wait: nothing is held then.
   */
  async admit(bytes: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.held += bytes;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const waiter = {
        bytes,
        go: () => {
          signal.removeEventListener('abort', abort);
          resolve(true);
        },
      };
      const abort = (): void => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
        this.letIn(); // the next waiter may fit now
      };
      this.waiting.push(waiter);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** A tail's bytes changed by `delta`: more read than it was let in for, or fewer once acknowledged or closed. */
  change(delta: number): void {
    this.held += delta;
    if (delta < 0) this.letIn();
  }

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.limit;
  }

  private letIn(): void {
    for (let next = this.waiting[0]; next !== undefined && this.fits(next.bytes); next = this.waiting[0]) {
      this.waiting.shift();
      this.held += next.bytes;
      next.go();
    }
  }
}
