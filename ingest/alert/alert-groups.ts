// Alert groups: findings with the same label set (the fingerprint, docs/alerting.md §5) fold into one group
// that counts events and keeps a few examples; `evaluate` says which groups to notify about now.
import { createHash } from 'node:crypto';
import type { AlertConfig } from './config.js';
import type { Finding, RuleName } from './lock-facts.js';
import { completeParties, isLate, type LateParties } from './late-parties.js';

/** What a channel receives: one group's state at one moment. */
export interface AlertNotice {
  fingerprint: string;
  rule: RuleName;
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  /** Human-readable details: summary, counts, first/last seen, the most frequent tallied values. */
  annotations: Record<string, string>;
  /** Events in the group since it started firing. */
  count: number;
  /** 1 for a group's first notification, then 2, 3…; re-sends and the resolve repeat the last number. */
  sequence: number;
  /** The latest example events, oldest first. */
  examples: Record<string, string>[];
  /** When the group started (alerter clock), ISO. */
  startsAt: string;
  /** Set when resolved: the alerter clock at resolution, ISO. */
  endsAt?: string;
}

interface Group {
  fingerprint: string;
  rule: RuleName;
  labels: Record<string, string>;
  count: number;
  /** Events added since the last notification. */
  fresh: number;
  firstSeen: string;
  lastSeen: string;
  startedAt: number;
  lastEventAt: number;
  notifiedAt: number | null;
  sequence: number;
  examples: Record<string, string>[];
  /** Per example, its parties still described without their user (late-parties.ts); undefined for the others. */
  late: (LateParties | undefined)[];
  /** A culprit was named after the last notice, which still says `not seen`: a correction is owed. */
  named: boolean;
  /** The last notice was such a correction: another one waits for the next update. */
  corrected: boolean;
  tallies: Map<string, Map<string, number>>;
}

/** Distinct values tallied per field; further values are counted under "(other)" so memory stays bounded. */
const MAX_TALLY = 50;

export function fingerprintOf(labels: Record<string, string>): string {
  const text = Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`).join('\u0000');
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

export interface Evaluation {
  /** First notification (after group_wait) or an update (new events, group_interval passed). */
  notify: AlertNotice[];
  resolved: AlertNotice[];
  /** Firing groups that were notified before and have nothing new: for channels that re-send. */
  firing: AlertNotice[];
}

export class AlertGroups {
  readonly #groups = new Map<string, Group>();
  constructor(private readonly config: AlertConfig) {}

  get size(): number {
    return this.#groups.size;
  }

  /** Returns false when the finding opens a new group beyond `max_groups` (the caller counts the drop). */
  add(f: Finding, now: number): boolean {
    // Findings build their labels in one fixed order, so the values joined are a cheap identity; the
    // sorted-label SHA-1 is computed once per group (it was a tenth of observe's time per event).
    let key = '';
    for (const k in f.labels) key += `${f.labels[k]}\u0000`;
    let g = this.#groups.get(key);
    if (!g) {
      if (this.#groups.size >= this.config.max_groups) return false;
      g = {
        fingerprint: fingerprintOf(f.labels), rule: f.rule, labels: f.labels, count: 0, fresh: 0, firstSeen: f.ts, lastSeen: f.ts,
        startedAt: now, lastEventAt: now, notifiedAt: null, sequence: 0, examples: [], late: [], named: false, corrected: false,
        tallies: new Map(),
      };
      this.#groups.set(key, g);
    }
    g.count += f.count;
    g.fresh += f.count;
    if (f.ts < g.firstSeen) g.firstSeen = f.ts;
    if (f.ts > g.lastSeen) g.lastSeen = f.ts;
    g.lastEventAt = now;
    g.examples.push(f.example);
    g.late.push(f.late);
    if (g.examples.length > this.config.max_examples) {
      g.examples.shift();
      g.late.shift();
    }
    for (const [field, values] of Object.entries(f.tally)) {
      let t = g.tallies.get(field);
      if (!t) g.tallies.set(field, (t = new Map()));
      for (const v of values) {
        const k = t.has(v) || t.size < MAX_TALLY ? v : '(other)';
        t.set(k, (t.get(k) ?? 0) + f.count);
      }
    }
    return true;
  }

  /**
   * Walks every group once. Quiet for resolve_after_ms → resolved (and forgotten; if it was never
   * notified nothing is sent, as Alertmanager does within group_wait). Not yet notified and older than
   * group_wait_ms → first notice. Notified, with new events, group_interval_ms after the last → update.
   * Notified while a culprit was unknown, and the culprit named since → one correction now, not
   * group_interval_ms later: who blocked is what the person needs (docs/alerting.md §5). Further corrections
   * wait for the next update, so a group sends at most two notices per interval.
   */
  evaluate(now: number): Evaluation {
    const c = this.config;
    const out: Evaluation = { notify: [], resolved: [], firing: [] };
    for (const [key, g] of this.#groups) {
      learnNames(g);
      if (now - g.lastEventAt >= c.resolve_after_ms) {
        this.#groups.delete(key);
        if (g.notifiedAt !== null) out.resolved.push(this.#notice(g, 'resolved', now));
      } else if (g.notifiedAt === null ? now - g.startedAt >= c.group_wait_ms : g.fresh > 0 && now - g.notifiedAt >= c.group_interval_ms) {
        out.notify.push(this.#markNotified(g, now));
      } else if (g.named && !g.corrected) {
        out.notify.push(this.#markNotified(g, now, true));
      } else if (g.notifiedAt !== null) {
        out.firing.push(this.#notice(g, 'firing', now));
      }
    }
    return out;
  }

  /** Notices for every group with events or culprits' names not yet notified, ignoring the waits: used by stop(). */
  flush(now: number): AlertNotice[] {
    return [...this.#groups.values()].filter((g) => {
      learnNames(g);
      return g.fresh > 0 || g.named;
    }).map((g) => this.#markNotified(g, now, g.fresh === 0));
  }

  /** `correction`: sent only because a culprit got its name, so the notice says so (docs/alerting.md §5). */
  #markNotified(g: Group, now: number, correction = false): AlertNotice {
    g.notifiedAt = now;
    g.fresh = 0;
    g.named = false;
    g.corrected = correction;
    g.sequence++;
    const notice = this.#notice(g, 'firing', now);
    if (correction) notice.annotations.correction = `names culprits not yet seen in the journal when notice ${g.sequence - 1} was sent`;
    return notice;
  }

  #notice(g: Group, status: AlertNotice['status'], now: number): AlertNotice {
    completeLate(g);
    const annotations: Record<string, string> = {
      summary: summaryOf(g, this.config),
      count: String(g.count),
      first_seen: g.firstSeen,
      last_seen: g.lastSeen,
    };
    for (const [field, t] of g.tallies) {
      annotations[`top_${field}`] = [...t].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([v, n]) => `${v} ×${n}`).join('\n');
    }
    const last = g.examples[g.examples.length - 1];
    if (last) for (const [k, v] of Object.entries(last)) annotations[`last_${k}`] = v;
    return {
      fingerprint: g.fingerprint, rule: g.rule, status, labels: g.labels, annotations, count: g.count, sequence: g.sequence,
      examples: [...g.examples], startsAt: new Date(g.startedAt).toISOString(),
      ...(status === 'resolved' ? { endsAt: new Date(now).toISOString() } : {}),
    };
  }
}

/**
 * Culprits named at observe time without their user are described again from what the index knows now: their
 * own earlier events may have been read since (late-parties.ts). The example is replaced, not changed in place:
 * notices already queued for delivery keep theirs.
 */
function completeLate(g: Group): boolean {
  let changed = false;
  for (let i = 0; i < g.late.length; i++) {
    const late = g.late[i];
    if (late === undefined) continue;
    const text = completeParties(late, g.tallies.get(late.field));
    if (text !== undefined) {
      g.examples[i] = { ...g.examples[i], [late.field]: text };
      changed = true;
    }
    if (!isLate(late)) g.late[i] = undefined;
  }
  return changed;
}

/** A notified group whose culprit got its name since owes a correction; one not notified yet names it in its first. */
function learnNames(g: Group): void {
  if (g.notifiedAt !== null && completeLate(g)) g.named = true;
}

function summaryOf(g: Group, c: AlertConfig): string {
  const ib = g.labels.infobase || '(no infobase)';
  const db = g.labels.database || '(unknown)';
  const space = g.labels.lock_space && g.labels.lock_space !== 'unknown' ? ` on ${g.labels.lock_space}` : '';
  switch (g.rule) {
    case 'ttimeout': return `${g.count} managed-lock timeout(s) in infobase ${ib}${space}`;
    case 'tdeadlock': return `${g.count} managed-lock deadlock(s) in infobase ${ib}${space}`;
    case 'lock_exception': return `${g.count} lock error(s) (EXCP) in infobase ${ib}`;
    case 'lock_wait_rate': return `${g.count} lock waits${space} in infobase ${ib} above the per-minute threshold`;
    case 'pg_lock_timeout': return `${g.count} PostgreSQL lock timeout(s) (55P03) in database ${db} on ${g.labels.instance}`;
    case 'pg_deadlock': return `${g.count} PostgreSQL deadlock(s) (40P01) in database ${db} on ${g.labels.instance}`;
    case 'pg_lock_wait': return `${g.count} PostgreSQL lock wait(s) longer than ${c.rules.pg_lock_wait.threshold_ms} ms in database ${db} on ${g.labels.instance}`;
    case 'pg_blocked': return `${g.count} PostgreSQL backend(s) blocked longer than ${c.rules.pg_blocked.threshold_ms} ms in database ${db} on ${g.labels.instance} (still blocked when seen)`;
    case 'apdex_below_minimum': {
      const e = g.examples[g.examples.length - 1] ?? {};
      return `APDEX of key operation ${g.labels.operation} is ${e.apdex} over ${c.rules.apdex_below_minimum.window_minutes} min (N=${e.n}), below its minimum ${e.min_level}`;
    }
  }
}
