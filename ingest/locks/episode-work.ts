// Which episodes the lock resolver looks at next (docs/write-path.md §11): those that arrived and are not worked out
// yet, and those still missing something, again after 1, 2, 4 … s (at most every 30 s) — until everything is found,
// or, while following live files, until nothing new came for 5 minutes (an hour while the culprit's transaction is
// open): then the episode is settled. A backfill (`ingest`) settles nothing on the way: its last step does.

export type ResolverMode = 'follow' | 'backfill';

/** What the store says of an episode: its key, time (DateTime64 text, for the batch's bounds), status and version. */
export interface EpisodeState { key: string; time: string; status: string; version: number }

export interface Work extends EpisodeState {
  nextAt: number;
  attempt: number;
  /** When the facts behind it last changed (its version without the settled bit); 0 = never worked out. */
  changedAt: number;
  facts: number;
  txOpen: boolean;
}

export const SETTLE_AFTER_MS = 300_000;
export const SETTLE_TX_OPEN_AFTER_MS = 3_600_000;
const BACKOFF_MAX_MS = 30_000;

const terminal = (status: string): boolean => status === 'complete' || status === 'settled';

/** How long a finished episode is remembered: the discovery re-reads a few seconds of arrivals. */
const FINISHED_MEMORY_MS = 30_000;

export class EpisodeWork {
  readonly #items = new Map<string, Work>();
  /** Episodes completed or settled lately, so that their older rows seen again do not bring them back. */
  readonly #finished = new Map<string, { version: number; at: number }>();
  constructor(readonly mode: ResolverMode) {}

  get size(): number { return this.#items.size; }

  /** Rows the store holds (new ones, or versions another resolver wrote): the latest version of a key counts. */
  seen(states: EpisodeState[], now: number): void {
    for (const [key, f] of this.#finished) if (now - f.at > FINISHED_MEMORY_MS) this.#finished.delete(key);
    for (const s of states) {
      const finished = this.#finished.get(s.key);
      if (finished !== undefined && s.version <= finished.version) continue;
      const known = this.#items.get(s.key);
      if (known !== undefined && s.version <= known.version) continue;
      if (terminal(s.status)) {
        this.#items.delete(s.key);
        this.#finished.set(s.key, { version: s.version, at: now });
        continue;
      }
      if (known === undefined) this.#items.set(s.key, { ...s, nextAt: now, attempt: 0, changedAt: 0, facts: -1, txOpen: false });
      else Object.assign(known, { status: s.status, version: s.version });
    }
  }

  /** Episodes due now, oldest first (a batch's lookups read one time range). */
  due(now: number, limit: number): Work[] {
    const due = [...this.#items.values()].filter((w) => w.nextAt <= now);
    due.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
    return due.slice(0, limit);
  }

  /** Every episode not yet complete or settled (the backfill's last step). */
  all(): Work[] {
    return [...this.#items.values()].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  }

  /** Whether this episode, still missing something, is settled at this look: nothing new came for long enough. */
  shouldSettle(w: Work, now: number): boolean {
    if (this.mode === 'backfill' || w.changedAt === 0) return false;
    return now - w.changedAt >= (w.txOpen ? SETTLE_TX_OPEN_AFTER_MS : SETTLE_AFTER_MS);
  }

  /** After working an episode out: dropped once complete or settled, else looked at again later. */
  done(w: Work, r: { status: string; version: number; facts: number; txOpen: boolean }, now: number): void {
    if (terminal(r.status)) {
      this.#items.delete(w.key);
      this.#finished.set(w.key, { version: Math.max(w.version, r.version), at: now });
      return;
    }
    if (r.facts !== w.facts) { w.changedAt = now; w.attempt = 0; }
    w.facts = r.facts;
    w.txOpen = r.txOpen;
    w.status = r.status;
    w.version = Math.max(w.version, r.version);
    w.attempt++;
    // A backfill looks at a partial episode again only in its last step, once every file is stored.
    w.nextAt = this.mode === 'backfill' ? Number.POSITIVE_INFINITY : now + Math.min(BACKOFF_MAX_MS, 1000 * 2 ** (w.attempt - 1));
  }
}
