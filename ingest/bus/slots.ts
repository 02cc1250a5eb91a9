// A FIFO counting semaphore: the bound that turns "too many segments in flight" into waiting publishers
// (backpressure, docs/architecture.md §3 "Bounded memory"). Waiters are served in arrival order, which keeps
// segments of one file in publish order.

export class Slots {
  #free: number;
  readonly #waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  #closed: Error | undefined;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`slots: size ${size} is not a positive integer`);
    this.#free = size;
  }

  get inUse(): number {
    return this.size - this.#free;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  /** Resolves once a slot is held; rejects with the close reason if the slots close first. */
  acquire(): Promise<void> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (this.#free > 0 && this.#waiters.length === 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next.resolve();
    else this.#free += 1;
  }

  /** Rejects every waiter and every later acquire; held slots may still be released. */
  close(reason: Error): void {
    this.#closed = reason;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(reason);
  }
}
