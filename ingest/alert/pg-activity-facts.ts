// Turns pg_activity samples into `pg_blocked` findings: a backend seen blocked (pg_blocking_pids not empty) from
// one sample to a later one at least `threshold_ms` apart fires once per blocked statement, while it still waits,
// with the holders' state and query from the same sample and both sides' 1C user and context from the dbpid index.
// A statement is (host, server, pid, query_start); one that is no longer blocked in a sample of its server is
// forgotten, so its next wait counts afresh. The measure is first-seen to latest sample: a lower bound of the wait,
// late by up to one interval.
import { LRUCache } from 'lru-cache';
import type { AlertConfig } from './config.js';
import type { ConnectionIndex } from './connection-index.js';
import { type DbpidIndex, describeOneC } from './dbpid-index.js';
import { ALERT_NAMES, type Finding } from './lock-facts.js';
import type { PgActivityFactsBackend } from './segment-facts.js';

const MAX_SQL = 500;
/** Blocked statements tracked at once; the least recently seen is dropped beyond it (lru-cache: connection-index.ts). */
const MAX_TRACKED = 10_000;

const sql = (s: string): string => (s.length > MAX_SQL ? `${s.slice(0, MAX_SQL)}…` : s);

interface Tracked { since: number; alerted: boolean }

export class PgActivityFacts {
  /** key → when first seen blocked (ms) and whether it fired; per server, the keys of its last sample. */
  readonly #blocked = new LRUCache<string, Tracked>({ max: MAX_TRACKED });
  readonly #lastKeys = new Map<string, Set<string>>();
  constructor(private readonly config: AlertConfig, private readonly dbpids: DbpidIndex, private readonly connections: ConnectionIndex) {}

  /** Reads one sample's backends (a pg_activity segment); pushes findings to `out`. */
  read(host: string, backends: readonly PgActivityFactsBackend[], out: Finding[]): void {
    const rule = this.config.rules.pg_blocked;
    if (!rule.enabled || backends.length === 0) return;
    const byPid = new Map(backends.map((b) => [b.pid, b]));
    const server = backends[0]!.server;
    const serverKey = `${host}\u0000${server}`;
    const seen = new Set<string>();
    for (const b of backends) {
      if (b.blocking_pids.length === 0) continue;
      const key = `${serverKey}\u0000${b.pid}\u0000${b.query_start ?? ''}`;
      seen.add(key);
      const at = Date.parse(b.ts);
      let t = this.#blocked.get(key);
      if (t === undefined) {
        t = { since: at, alerted: false };
        this.#blocked.set(key, t);
      }
      if (t.alerted || at - t.since < rule.threshold_ms) continue;
      t.alerted = true;
      out.push(this.#finding(host, b, at - t.since, byPid));
    }
    for (const key of this.#lastKeys.get(serverKey) ?? []) if (!seen.has(key)) this.#blocked.delete(key);
    this.#lastKeys.set(serverKey, seen);
  }

  #finding(host: string, b: PgActivityFactsBackend, blockedMs: number, byPid: Map<number, PgActivityFactsBackend>): Finding {
    const waiter = this.dbpids.lookup(b.pid, this.connections);
    const holderFacts = b.blocking_pids.map((h) => this.dbpids.lookup(h, this.connections));
    const holders = b.blocking_pids.map((h, i) => {
      const hb = byPid.get(h);
      return `pid ${h}${hb ? ` (${hb.state || '?'}${hb.wait_event ? `, waiting on ${hb.wait_event_type}/${hb.wait_event}` : ''}): «${sql(hb.query)}»` : ''}; ${describeOneC(h, holderFacts[i])}`;
    });
    const example: Record<string, string> = {
      ts: b.ts,
      server: b.server,
      waiter_pid: String(b.pid),
      waiter_statement: sql(b.query),
      user: b.user || '?',
      database: b.database || '?',
      application: b.application || '?',
      wait: `${b.wait_event_type}/${b.wait_event}`,
      blocked_ms: blockedMs.toFixed(0),
      outcome: 'still blocked',
      holder_pids: b.blocking_pids.join(','),
      holders: holders.join('\n'),
      waiter_1c_user: waiter?.user ?? '?',
      waiter_1c_context: waiter?.context ?? '?',
      waiter_1c: describeOneC(b.pid, waiter),
      holder_1c_users: holderFacts.map((f) => f?.user ?? '?').join(', '),
      holder_1c_contexts: holderFacts.map((f) => f?.context ?? '?').join('\n'),
    };
    return {
      rule: 'pg_blocked',
      labels: { alertname: ALERT_NAMES.pg_blocked, severity: this.config.rules.pg_blocked.severity, source: 'postgresql', instance: host, database: b.database },
      count: 1, ts: b.ts, example,
      tally: {
        waits: [example.wait!], waiter_1c_contexts: [waiter?.context ?? '?'],
        holder_1c_contexts: holderFacts.map((f) => f?.context ?? '?'), applications: [example.application!],
      },
    };
  }
}
