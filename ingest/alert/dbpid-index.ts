// The 1C side of a PostgreSQL backend: TJ DB events (DBPOSTGRS…) carry `dbpid` = the backend pid of the
// connection the 1C server process used, so the latest such event says which 1C user, context, infobase
// and connection a PostgreSQL waiter or lock holder belongs to (docs/tj-format.md §4, DB events).
import { LRUCache } from 'lru-cache';
import { ConnectionIndex } from './connection-index.js';

export interface OneCFacts {
  /** The 1C server host whose journal wrote the event. */
  host: string;
  infobase: string | undefined;
  connect_id: string | undefined;
  session_id: string | undefined;
  user: string | undefined;
  /** First line of the last Context seen with this dbpid (or on its connection, at lookup). */
  context: string | undefined;
  /** The TJ event and its end time, so a reader can judge how fresh the mapping is. */
  event: string;
  ts: string;
}

/**
 * Keyed by the pid alone: a TJ line does not say which PostgreSQL server its connection went to, so two
 * database servers reusing one pid number would share an entry (the latest wins). 1C keeps its database
 * connections open for long, so a pid maps to one connection for hours; a reused pid is overwritten by
 * its next DB event. Bounded like the connection index, by lru-cache for the same reason (connection-index.ts).
 */
export class DbpidIndex {
  readonly #map: LRUCache<string, OneCFacts>;
  constructor(readonly maxEntries: number) {
    this.#map = new LRUCache({ max: maxEntries });
  }

  /** Records an event; values it does not carry (undefined) keep their last known value for this pid. */
  update(dbpid: string, facts: OneCFacts): void {
    const prev = this.#map.get(dbpid);
    const next: OneCFacts = prev && prev.connect_id === facts.connect_id && prev.host === facts.host
      ? {
        ...facts, user: facts.user ?? prev.user, context: facts.context ?? prev.context,
        infobase: facts.infobase ?? prev.infobase, session_id: facts.session_id ?? prev.session_id,
      }
      : facts;
    this.#map.set(dbpid, next);
  }

  /**
   * The 1C facts for a backend pid. A DB event often has no Context of its own (the TJ config decides), so
   * missing user/context are filled from the connection's latest event in the connection index.
   */
  lookup(pid: number | null, connections: ConnectionIndex): OneCFacts | undefined {
    if (pid === null) return undefined;
    const f = this.#map.peek(String(pid));
    if (!f || f.connect_id === undefined || (f.user !== undefined && f.context !== undefined)) return f;
    const c = connections.get(ConnectionIndex.key(f.host, f.infobase ?? '', f.connect_id));
    return c ? { ...f, user: f.user ?? c.user, context: f.context ?? c.context } : f;
  }

  get size(): number {
    return this.#map.size;
  }
}

/** One line a DBA and a 1C developer both read: who in 1C held this PostgreSQL backend. */
export function describeOneC(pid: number | null, f: OneCFacts | undefined): string {
  if (!f) return `1C: no TJ event with dbpid=${pid ?? '?'} seen yet`;
  return `1C user ${f.user ?? '?'}; context ${f.context ?? '?'}; infobase ${f.infobase ?? '?'}; connection ${f.connect_id ?? '?'}`
    + ` on ${f.host} (${f.event} at ${f.ts})`;
}
