// Turns PostgreSQL lock trouble in `pg` segments into alert findings (docs/alerting.md §3.2, §4): lock timeouts
// (55P03), deadlocks (40P01) and waits longer than `pg_lock_wait.threshold_ms`. The holders and their
// statements come from the wait episode the entry closed (parsers/pg/lock-episodes.ts), the 1C user and
// context of every pid from the dbpid index fed by TJ DB events.
import type { PgLockFactsEpisode as PgLockEpisode, PgLockFactsEvent as PgStreamEvent } from './segment-facts.js';
import type { AlertConfig } from './config.js';
import type { ConnectionIndex } from './connection-index.js';
import { type DbpidIndex, describeOneC } from './dbpid-index.js';
import { ALERT_NAMES, type Finding, type RuleName } from './lock-facts.js';

/** Holder statements shown per pid (the ring holds 5), and characters per statement. */
const MAX_STATEMENTS = 3;
const MAX_SQL = 500;
/** Waits alerted from a `still waiting` line whose episode is still to come: remembered so it does not alert twice. */
const MAX_ALERTED_WAITS = 10_000;

const sql = (s: string | null | undefined): string => (s == null ? '' : s.length > MAX_SQL ? `${s.slice(0, MAX_SQL)}…` : s);
const waitKey = (host: string, pid: number, object: string): string => `${host}\u0000${pid}\u0000${object}`;
/** The log names relations by OID except in CONTEXT (`while updating tuple (0,4) in relation "accounts"`). */
const relationIn = (context: string | null): string | undefined => (context ? /relation "([^"]+)"/.exec(context)?.[1] : undefined);

function waitedMs(ep: PgLockEpisode): number | null {
  if (ep.wait_ms !== null) return ep.wait_ms;
  if (ep.ts_start === null || ep.ts_end === null) return null;
  const ms = Date.parse(ep.ts_end) - Date.parse(ep.ts_start);
  return Number.isNaN(ms) ? null : ms;
}

export class PgLockFacts {
  readonly #alertedWaits = new Set<string>();
  constructor(private readonly config: AlertConfig, private readonly dbpids: DbpidIndex, private readonly connections: ConnectionIndex) {}

  /** Reads one segment's events (stream order); pushes findings to `out`. */
  read(host: string, events: readonly PgStreamEvent[], out: Finding[]): void {
    const r = this.config.rules;
    // A wait whose episode closes in this segment alerts from the episode (total wait, holders' statements),
    // not from its `still waiting` line: the episode stream holds those lines until the wait ends anyway.
    const closedHere = new Set<string>();
    for (const ev of events) for (const ep of ev.lock_episodes ?? []) closedHere.add(waitKey(host, ep.pid, ep.object));
    for (const ev of events) {
      const episodes = ev.lock_episodes ?? [];
      if (r.pg_lock_timeout.enabled && (ev.kind === 'lock_timeout' || ev.sqlstate === '55P03')) this.#timeout(host, ev, episodes, out);
      else if (r.pg_deadlock.enabled && ev.kind === 'deadlock') this.#deadlock(host, ev, episodes, out);
      if (!r.pg_lock_wait.enabled) continue;
      const l = ev.lock;
      if (ev.kind === 'lock_wait' && l?.phase === 'still_waiting' && l.pid !== null && (l.wait_ms ?? 0) >= r.pg_lock_wait.threshold_ms) {
        const key = waitKey(host, l.pid, l.object);
        if (!closedHere.has(key) && !this.#alertedWaits.has(key)) {
          this.#remember(key);
          out.push(this.#finding('pg_lock_wait', host, ev, null, { waited_ms: (l.wait_ms ?? 0).toFixed(0), outcome: 'still waiting' }));
        }
      }
      for (const ep of episodes) {
        const alerted = this.#alertedWaits.delete(waitKey(host, ep.pid, ep.object));
        // Timeouts and deadlocks have rules of their own; a long wait is everything else that waited too long.
        if ((ep.outcome === 'lock_timeout' && r.pg_lock_timeout.enabled) || (ep.outcome === 'deadlock' && r.pg_deadlock.enabled)) continue;
        if (alerted) continue;
        const waited = waitedMs(ep);
        if (waited === null || waited < r.pg_lock_wait.threshold_ms) continue;
        out.push(this.#finding('pg_lock_wait', host, ev, ep, { waited_ms: waited.toFixed(0), outcome: ep.outcome }));
      }
    }
  }

  #remember(key: string): void {
    this.#alertedWaits.add(key);
    if (this.#alertedWaits.size > MAX_ALERTED_WAITS) this.#alertedWaits.delete(this.#alertedWaits.values().next().value!);
  }

  #timeout(host: string, ev: PgStreamEvent, episodes: PgLockEpisode[], out: Finding[]): void {
    const pid = ev.pid;
    const ep = episodes.find((x) => x.pid === pid) ?? null;
    const waited = ep ? waitedMs(ep) : null;
    out.push(this.#finding('pg_lock_timeout', host, ev, ep, { waited_ms: waited === null ? '?' : waited.toFixed(0) }, '55P03'));
  }

  #deadlock(host: string, ev: PgStreamEvent, episodes: PgLockEpisode[], out: Finding[]): void {
    const parts = ev.deadlock ?? [];
    // The victim's episode names its holders with their statements; without one, the DETAIL's cycle does.
    const ep = episodes.find((x) => x.pid === ev.pid) ?? null;
    const others = [...new Set(parts.map((p) => p.pid).filter((p) => p !== ev.pid))];
    const participants = parts.map((p) => `pid ${p.pid} waits for ${p.mode ?? '?'} on ${p.object ?? '?'}, blocked by pid ${p.blocked_by ?? '?'}; `
      + `statement «${sql(p.statement)}»; ${describeOneC(p.pid, this.#oneC(p.pid))}`);
    const f = this.#finding('pg_deadlock', host, ev, ep, { participants: participants.join('\n') || '?' }, '40P01', ep ? undefined : others);
    f.tally.participant_1c_contexts = parts.map((p) => this.#oneC(p.pid)?.context ?? '?');
    out.push(f);
  }

  #oneC(pid: number | null) {
    return this.dbpids.lookup(pid, this.connections);
  }

  /**
   * The common payload: the waiting (or victim) pid with its statement, role, database and application,
   * the lock and relation, the holders with their last statements, and the 1C side of each pid.
   */
  #finding(rule: RuleName, host: string, ev: PgStreamEvent, ep: PgLockEpisode | null, extra: Record<string, string>, sqlstate?: string,
    holderOverride?: number[]): Finding {
    const pid = ep?.pid ?? ev.lock?.pid ?? ev.pid;
    const database = ev.database ?? ep?.database ?? '';
    const labels: Record<string, string> = {
      alertname: ALERT_NAMES[rule], severity: this.config.rules[rule].severity, source: 'postgresql', instance: host, database,
    };
    if (sqlstate !== undefined) labels.sqlstate = sqlstate;
    const lockMode = ep?.mode ?? ev.lock?.mode;
    const object = ep?.object ?? ev.lock?.object;
    const holderPids = holderOverride ?? ep?.holder_pids ?? ev.lock?.holder_pids ?? [];
    const holders = holderPids.map((h) => {
      const statements = (ep?.holder_statements?.[String(h)] ?? []).slice(-MAX_STATEMENTS).map((s) => `«${sql(s)}»`).join(' then ');
      return `pid ${h}: last statements ${statements || '(none logged)'}; ${describeOneC(h, this.#oneC(h))}`;
    });
    const waiter = this.#oneC(pid);
    const holderFacts = holderPids.map((h) => this.#oneC(h));
    const relation = ev.lock?.relation_name ?? relationIn(ev.context) ?? (ep?.relation_oid != null ? `oid ${ep.relation_oid}` : '?');
    const example: Record<string, string> = {
      ts: ev.ts ?? ep?.ts_end ?? '',
      waiter_pid: String(pid ?? '?'),
      // The episode's statement is the one that waited; the closing entry (e.g. `acquired`) may carry none.
      waiter_statement: sql(ep?.statement ?? ev.statement),
      user: ev.user ?? ep?.user ?? '?',
      database: database || '?',
      application: ev.application ?? ep?.application ?? '?',
      session_id: ev.session_id ?? ep?.session_id ?? '?',
      relation,
      lock: lockMode || object ? `${lockMode ?? '?'} on ${object ?? '?'}` : '?',
      ...extra,
      holder_pids: holderPids.join(',') || '?',
      holders: holders.join('\n') || 'unknown: no `still waiting` line for this wait (needs log_lock_waits=on and deadlock_timeout below the timeout)',
      waiter_1c_user: waiter?.user ?? '?',
      waiter_1c_context: waiter?.context ?? '?',
      waiter_1c: describeOneC(pid, waiter),
      holder_1c_users: holderFacts.map((f) => f?.user ?? '?').join(', ') || '?',
      holder_1c_contexts: holderFacts.map((f) => f?.context ?? '?').join('\n') || '?',
      pg_context: ev.context ?? '',
    };
    return {
      rule, labels, count: 1, ts: example.ts!, example,
      tally: {
        relations: [relation], waiter_1c_contexts: [waiter?.context ?? '?'],
        holder_1c_contexts: holderFacts.map((f) => f?.context ?? '?'), applications: [example.application!],
      },
    };
  }
}
