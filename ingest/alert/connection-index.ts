// The latest known facts per infobase connection (host, infobase, t:connectID), fed by every observed
// event, so an alert can name a culprit connection by its user and context (docs/tj-format.md §5.4 step 2).
import { LRUCache } from 'lru-cache';

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
 * The least recently seen connection is forgotten past `maxEntries`, so an 11-hour run with connection ids
 * reused and new ones opened cannot grow memory without end. Only the latest values are kept: a culprit's
 * context is its last one, not necessarily the one that took the lock (finding that needs its transaction's
 * TLOCKs, §5.4 step 3–4, which this index does not hold).
 *
 * lru-cache, not a Map whose first key is evicted: V8 leaves a deleted Map entry as a hole until the table is
 * rehashed, and `keys().next()` walks every hole from the start, so evicting one entry per new connection cost
 * ~70 µs at 100,000 entries. The sink spent a third of its main thread there once 10,000 new connections a
 * second filled the index, and visibility fell seconds behind (bench/kafka-e2e.ts, docs/write-path.md §10).
 */
export class ConnectionIndex {
  readonly #cache: LRUCache<string, ConnectionFacts>;
  constructor(readonly maxEntries: number) {
    this.#cache = new LRUCache({ max: maxEntries });
  }

  static key(host: string, infobase: string, connectId: string): string {
    return `${host}\u0000${infobase}\u0000${connectId}`;
  }

  /** Records this event; values it does not carry (undefined) keep their last known value. */
  update(key: string, user: string | undefined, context: string | undefined, event: string, ts: string,
    regions: string | undefined, lockUs: number | undefined): void {
    // get() marks the entry most recent; the object itself is updated in place (no garbage per event).
    const f = this.#cache.get(key);
    if (f === undefined) {
      this.#cache.set(key, { user, context, event, ts, regions, lock_us: lockUs });
      return;
    }
    if (user !== undefined) f.user = user;
    if (context !== undefined) f.context = context;
    f.event = event;
    f.ts = ts;
    if (regions !== undefined) f.regions = regions;
    if (lockUs !== undefined) f.lock_us = lockUs;
  }

  /** A lookup for an alert: does not make the connection more recent. */
  get(key: string): ConnectionFacts | undefined {
    return this.#cache.peek(key);
  }

  get size(): number {
    return this.#cache.size;
  }
}
