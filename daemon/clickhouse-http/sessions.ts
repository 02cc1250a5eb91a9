// session_id: an engine connection kept between requests, so that its settings and temporary tables stay, as a
// ClickHouse server keeps a named session (clickhouse-connect opens one per client by default). A session belongs to
// the user who opened it, serves one request at a time (SESSION_IS_LOCKED otherwise) and closes after
// session_timeout seconds unused (default 60, at most 3600, as ClickHouse's defaults).
import type { Session } from 'chdb';
import { chError } from './errors.js';

const DEFAULT_TIMEOUT_S = 60;
const MAX_TIMEOUT_S = 3600;

interface Held {
  session: Session;
  busy: boolean;
  timeoutS: number;
  timer: NodeJS.Timeout | null;
}

export interface Lease {
  session: Session;
  /** True the first time: the caller prepares it (settings of the server, the limits, readonly). */
  fresh: boolean;
  release(close: boolean): void;
}

export interface SessionStore {
  acquire(user: string, id: string, o: { timeoutS: number | null; check: boolean }, open: () => Session): Lease;
  closeAll(): void;
  /** Sessions open now. */
  size(): number;
}

export function createSessionStore(): SessionStore {
  const held = new Map<string, Held>();
  const close = (key: string): void => {
    const h = held.get(key);
    if (!h) return;
    held.delete(key);
    if (h.timer) clearTimeout(h.timer);
    h.session.close();
  };
  return {
    acquire(user, id, o, open) {
      if (o.timeoutS !== null && o.timeoutS > MAX_TIMEOUT_S) {
        throw chError('INVALID_SESSION_TIMEOUT', `Session timeout '${o.timeoutS}' is larger than max_session_timeout: ${MAX_TIMEOUT_S}. Maximum session timeout could be modified in configuration file`);
      }
      const key = `${user}\u0000${id}`;
      let h = held.get(key);
      let fresh = false;
      if (!h) {
        if (o.check) throw chError('SESSION_NOT_FOUND', `Session ${id} not found`);
        h = { session: open(), busy: false, timeoutS: o.timeoutS ?? DEFAULT_TIMEOUT_S, timer: null };
        held.set(key, h);
        fresh = true;
      }
      if (h.busy) throw chError('SESSION_IS_LOCKED', `Session ${id} is locked by a concurrent client`);
      h.busy = true;
      if (o.timeoutS !== null) h.timeoutS = o.timeoutS;
      if (h.timer) { clearTimeout(h.timer); h.timer = null; }
      const entry = h;
      return {
        session: h.session,
        fresh,
        release(closeNow) {
          entry.busy = false;
          if (closeNow) { close(key); return; }
          entry.timer = setTimeout(() => close(key), entry.timeoutS * 1000);
          entry.timer.unref();
        },
      };
    },
    closeAll() {
      for (const key of [...held.keys()]) close(key);
    },
    size: () => held.size,
  };
}
