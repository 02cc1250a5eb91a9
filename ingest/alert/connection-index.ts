// The latest known facts per infobase connection (host, infobase, t:connectID), fed by every observed
// event, so an alert can name a culprit connection by its user and context (docs/tj-format.md §5.4 step 2).

export interface ConnectionFacts {
  user: string | undefined;
  /** First line of the last Context seen on this connection. */
  context: string | undefined;
  /** Last event name and its end time. */
  event: string;
  ts: string;
  /** Regions of the connection's last TLOCK: the lock space it last asked for. */
  regions: string | undefined;
  /** Duration of that TLOCK, µs. */
  lock_us: number | undefined;
}

/**
 * An LRU over a Map (insertion order = recency; a hit is deleted and re-inserted). Bounded so an
 * 11-hour run with connection ids reused and new ones opened cannot grow memory without end. Only the
 * latest values are kept: a culprit's context is its last one, not necessarily the one that took the
 * lock (finding that needs its transaction's TLOCKs, §5.4 step 3–4, which this index does not hold).
 */
export class ConnectionIndex {
  readonly #map = new Map<string, ConnectionFacts>();
  constructor(readonly maxEntries: number) {}

  static key(host: string, infobase: string, connectId: string): string {
    return `${host}\u0000${infobase}\u0000${connectId}`;
  }

  /** Records this event; values it does not carry (undefined) keep their last known value. */
  update(key: string, user: string | undefined, context: string | undefined, event: string, ts: string,
    regions: string | undefined, lockUs: number | undefined): void {
    let f = this.#map.get(key);
    if (f) {
      // Re-insert to mark it most recent; the object itself is updated in place (no garbage per event).
      this.#map.delete(key);
      if (user !== undefined) f.user = user;
      if (context !== undefined) f.context = context;
      f.event = event;
      f.ts = ts;
      if (regions !== undefined) f.regions = regions;
      if (lockUs !== undefined) f.lock_us = lockUs;
    } else {
      f = { user, context, event, ts, regions, lock_us: lockUs };
    }
    this.#map.set(key, f);
    if (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next().value;
      if (oldest !== undefined) this.#map.delete(oldest);
    }
  }

  get(key: string): ConnectionFacts | undefined {
    return this.#map.get(key);
  }

  get size(): number {
    return this.#map.size;
  }
}
