// Turns one TJ event into alert findings (docs/tj-format.md §5: TTIMEOUT, TDEADLOCK, TLOCK waits; §6: lock
// EXCP) and feeds the connection index and the dbpid index (for PostgreSQL alerts). Runs for every event of every
// tj segment, on the typed columns its row carries (segment-facts.ts), and does nothing else for events no rule
// cares about.
import { LRUCache } from 'lru-cache';
import type { TjFacts } from './segment-facts.js';
import type { AlertConfig } from './config.js';
import { ConnectionIndex, type ConnectionFacts } from './connection-index.js';
import { DbpidIndex } from './dbpid-index.js';
import { formatEdge, parseDeadlockEdges } from '../../parsers/tj/locks/deadlock-edges.js';
import { type LateParties, lateParties, type Party, partiesText } from './late-parties.js';

export type RuleName = 'ttimeout' | 'tdeadlock' | 'lock_exception' | 'lock_wait_rate' | 'pg_lock_timeout' | 'pg_deadlock' | 'pg_lock_wait' | 'pg_blocked' | 'apdex_below_minimum';

export const ALERT_NAMES: Record<RuleName, string> = {
  ttimeout: 'OneCLockTimeout',
  tdeadlock: 'OneCDeadlock',
  lock_exception: 'OneCLockException',
  lock_wait_rate: 'OneCLockWaitRate',
  apdex_below_minimum: 'OneCApdexBelowMinimum',
  pg_lock_timeout: 'PostgresLockTimeout',
  pg_deadlock: 'PostgresDeadlock',
  pg_lock_wait: 'PostgresLockWait',
  pg_blocked: 'PostgresBackendBlocked',
};

/** One event's worth of evidence for an alert group; `labels` are its identity (docs/alerting.md §5). */
export interface Finding {
  rule: RuleName;
  labels: Record<string, string>;
  /** Events this finding stands for (the rate rule reports a whole minute's count when it crosses). */
  count: number;
  ts: string;
  example: Record<string, string>;
  /** Values counted per field across the group, e.g. culprit connections. */
  tally: Record<string, string[]>;
  /** Culprits named before their user was known: described again when a notice is built (late-parties.ts). */
  late?: LateParties;
}

/** A context's first line as alerts show it: bounded, the cut marked. */
function bounded(line: string | undefined, max = 300): string | undefined {
  return line === undefined || line.length <= max ? line : `${line.slice(0, max)}…`;
}

/** First non-blank line, trimmed and bounded: Context may start with a line break (§3). */
export function firstLine(text: string | undefined, max = 300): string | undefined {
  if (text === undefined) return undefined;
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    const t = text.slice(from, nl < 0 ? text.length : nl).trim();
    if (t !== '') return t.length > max ? `${t.slice(0, max)}…` : t;
    if (nl < 0) break;
    from = nl + 1;
  }
  return undefined;
}

const list = (v: string | undefined): string[] => (v ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
const ms = (us: number): string => (us / 1000).toFixed(0);

function victimOf(p: TjFacts, context: string | undefined): Record<string, string> {
  return { victim_connection: p.connect ?? '?', victim_user: p.user ?? '?', victim_context: context ?? '?' };
}

export function describeConnection(id: string, f: ConnectionFacts | undefined): string {
  if (!f) return `connection ${id} (not seen in the journal yet)`;
  const lock = f.regions ? `; last lock ${f.regions}` : '';
  return `connection ${id} (user ${f.user ?? '?'}; context ${f.context ?? '?'}; last event ${f.event} at ${f.ts}${lock})`;
}

/** Reads events into findings; holds the connection index and the per-minute TLOCK wait counts. */
export class LockFacts {
  readonly index: ConnectionIndex;
  readonly dbpids: DbpidIndex;
  /** Per (host, infobase, lock space): the least recently waited-on space is forgotten first (connection-index.ts). */
  readonly #buckets: LRUCache<string, { minute: string; count: number }>;
  readonly #patterns: string[];

  constructor(private readonly config: AlertConfig) {
    this.index = new ConnectionIndex(config.index_max_entries);
    this.dbpids = new DbpidIndex(config.index_max_entries);
    this.#buckets = new LRUCache({ max: config.index_max_entries });
    this.#patterns = config.rules.lock_exception.patterns.map((s) => s.toLowerCase());
  }

  read(host: string, e: TjFacts, out: Finding[]): void {
    const p = e;
    const infobase = p.infobase ?? '';
    const rules = this.config.rules;
    const key = p.connect === undefined ? undefined : ConnectionIndex.key(host, infobase, p.connect);
    const context = bounded(p.context);
    const name = e.event;
    if (name === 'TTIMEOUT' && rules.ttimeout.enabled) this.#timeout(host, infobase, key, context, e, p, out);
    else if (name === 'TDEADLOCK' && rules.tdeadlock.enabled) this.#deadlock(host, infobase, context, e, p, out);
    else if (name === 'EXCP' && rules.lock_exception.enabled && this.#isLockError(p)) {
      out.push({
        rule: 'lock_exception', labels: this.#labels('lock_exception', host, infobase, undefined), count: 1, ts: e.ts,
        example: { ts: e.ts, ...victimOf(p, context), exception: p.exception ?? '', descr: firstLine(p.descr) ?? '' },
        tally: { victim_users: [p.user ?? '?'], victim_contexts: [context ?? '?'] },
      });
    } else if (name === 'TLOCK' && rules.lock_wait_rate.enabled && p.waits) this.#countWait(host, infobase, e, p, context, out);

    if (key !== undefined) {
      const isLock = name === 'TLOCK';
      this.index.update(key, p.user, context, name, e.ts, isLock ? p.regions : undefined, isLock ? e.duration_us : undefined);
    }
    if (p.dbpid !== undefined && p.dbpid !== '' && p.dbpid !== '0') {
      this.dbpids.update(p.dbpid.trim(), {
        host, infobase: p.infobase, connect_id: p.connect, session_id: p.session, user: p.user, context, event: name, ts: e.ts,
      });
    }
  }

  #labels(rule: RuleName, host: string, infobase: string, space: string | undefined): Record<string, string> {
    const l: Record<string, string> = {
      alertname: ALERT_NAMES[rule], severity: this.config.rules[rule].severity, source: '1c-techjournal', cluster: host, infobase,
    };
    if (space !== undefined) l.lock_space = space;
    return l;
  }

  /** A culprit as the index knows it now; one whose user is not known yet can be described again later. */
  #culprit(host: string, infobase: string, id: string): Party {
    const key = ConnectionIndex.key(host, infobase, id);
    const known = this.index.get(key);
    const text = describeConnection(id, known);
    if (known?.user !== undefined) return { text };
    const index = this.index;
    return {
      text,
      describe: () => {
        const f = index.get(key);
        return f?.user === undefined ? undefined : describeConnection(id, f);
      },
    };
  }

  #timeout(host: string, infobase: string, key: string | undefined, context: string | undefined, e: TjFacts, p: TjFacts, out: Finding[]): void {
    const own = key === undefined ? undefined : this.index.get(key);
    // The TTIMEOUT itself has no lock space and is written with duration 0; the victim's TLOCK of the
    // same connection carries both (§5.2). Ours is its latest TLOCK seen, if it came first.
    const space = own?.regions ?? 'unknown';
    const waitUs = e.duration_us > 0 ? e.duration_us : own?.lock_us ?? 0;
    const culprits = list(p.waits).map((id) => this.#culprit(host, infobase, id));
    out.push({
      rule: 'ttimeout', labels: this.#labels('ttimeout', host, infobase, space), count: 1, ts: e.ts,
      example: { ts: e.ts, ...victimOf(p, context), wait_ms: ms(waitUs), lock_space: space, culprit_connections: p.waits ?? '', culprits: partiesText(culprits) },
      tally: { culprits: culprits.map((c) => c.text), victim_users: [p.user ?? '?'], victim_contexts: [context ?? '?'] },
      late: lateParties('culprits', culprits),
    });
  }

  #deadlock(host: string, infobase: string, context: string | undefined, e: TjFacts, p: TjFacts, out: Finding[]): void {
    const edges = parseDeadlockEdges(p.edges ?? '');
    const spaces = [...new Set(edges.map((x) => x.space))].sort();
    const holders = [...new Set(edges.map((x) => x.holder))].map((id) => this.#culprit(host, infobase, id));
    out.push({
      rule: 'tdeadlock', labels: this.#labels('tdeadlock', host, infobase, spaces.join(',') || 'unknown'), count: 1, ts: e.ts,
      example: { ts: e.ts, ...victimOf(p, context), edges: edges.map(formatEdge).join('; '), holders: partiesText(holders) },
      tally: { holders: holders.map((h) => h.text), victim_users: [p.user ?? '?'], victim_contexts: [context ?? '?'] },
      late: lateParties('holders', holders),
    });
  }

  #isLockError(p: TjFacts): boolean {
    const text = `${p.exception ?? ''}\n${p.descr ?? ''}`.toLowerCase();
    return this.#patterns.some((s) => text.includes(s));
  }

  /**
   * Counts waits per (host, infobase, lock space) and minute of event time, not arrival time, so a
   * backlog read in a burst after a restart does not look like a storm. Lines of a file are not strictly
   * time-ordered (§2): a late line of an earlier minute counts into the current one — close, not exact.
   */
  #countWait(host: string, infobase: string, e: TjFacts, p: TjFacts, context: string | undefined, out: Finding[]): void {
    const minute = e.ts.slice(0, 16);
    const limit = this.config.rules.lock_wait_rate.per_minute;
    for (const space of list(p.regions)) {
      const k = `${host}\u0000${infobase}\u0000${space}`;
      let b = this.#buckets.get(k);
      if (!b) {
        b = { minute, count: 0 };
        this.#buckets.set(k, b);
      } else if (minute > b.minute) {
        b.minute = minute;
        b.count = 0;
      }
      b.count++;
      if (b.count <= limit) continue;
      out.push({
        rule: 'lock_wait_rate', labels: this.#labels('lock_wait_rate', host, infobase, space), count: b.count === limit + 1 ? b.count : 1, ts: e.ts,
        example: { ts: e.ts, minute, connection: p.connect ?? '?', user: p.user ?? '?', context: context ?? '?', wait_ms: ms(e.duration_us), wait_connections: p.waits ?? '' },
        tally: { waiting_for: list(p.waits), users: [p.user ?? '?'] },
      });
    }
  }
}
