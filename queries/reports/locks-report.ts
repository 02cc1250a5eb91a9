// `perfpipe report locks`: managed-lock waits, timeouts and deadlocks with their culprits — the culprit's transaction
// and the lock of it that conflicted (docs/tj-format.md §5.4) — and where the waiting went: lock spaces, minutes, contexts.
// SQL finds the events and candidates; deadlock edges are split with the alerter's parser (it knows quoted commas)
// and the conflict is judged by parsers/tj/locks/lock-conflict.ts.
import type { ReportParams } from './report-rows.js';
import { csvText } from './csv.js';
import { parseDeadlockEdges } from '../../parsers/tj/locks/deadlock-edges.js';
import { parseLockItem } from '../../parsers/tj/locks/lock-items.js';
import { isoTime, lockCulprit, type LockCulprit } from '../../parsers/tj/locks/lock-culprits.js';

export type { LockCulprit } from '../../parsers/tj/locks/lock-culprits.js';
export interface LockTimeout {
  ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string;
  culprit_connect_ids: number[]; culprits: LockCulprit[];
}
export interface DeadlockEdgeOut { waiter: number; holder: number; region: string; mode: string; lock: string; culprit: LockCulprit | null }
export interface Deadlock {
  ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string;
  /** Holders of the edges on which the victim itself waits. */
  culprit_connect_ids: number[]; edges: DeadlockEdgeOut[];
}
export interface LockWait {
  ts: string; infobase: string; connect_id: number; user: string; context: string; regions: string[]; wait_ms: number;
  culprit_connect_ids: number[]; culprits: LockCulprit[];
}
export interface LockRegion { infobase: string; region: string; waits: number; total_wait_ms: number; max_wait_ms: number; waiting_connections: number }
export interface LockTotals { waits: number; total_wait_ms: number; max_wait_ms: number; timeouts: number; deadlocks: number }
export interface LockMinute extends LockTotals { minute: string; infobase: string }
export interface LockContext extends LockTotals { infobase: string; context: string }
export interface LocksReport {
  waits: LockWait[]; timeouts: LockTimeout[]; deadlocks: Deadlock[]; top_regions: LockRegion[];
  per_minute: LockMinute[]; top_contexts: LockContext[];
}

type Row = Record<string, unknown>;
/** Rows of the report's SQL files, by file: tj-lock-culprits, -deadlocks, -wait-events, -waits, -minutes, -contexts. */
export interface LocksReportRows { culprits: Row[]; deadlocks: Row[]; waits: Row[]; regions: Row[]; minutes: Row[]; contexts: Row[] }

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);
const eventKey = (r: Row): string => `${str(r.file_key)}|${str(r.file_offset)}`;
const totals = (r: Row): LockTotals => ({
  waits: Number(r.waits), total_wait_ms: Number(r.total_wait_ms), max_wait_ms: Number(r.max_wait_ms), timeouts: Number(r.timeouts), deadlocks: Number(r.deadlocks),
});

function groupBy(rows: Row[], key: (r: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const k = key(r);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [r]);
    else list.push(r);
  }
  return groups;
}

/** Reads a report SQL file's rows with extra parameters (queries/reports/report-rows.ts, windowed by the caller). */
export type ReadReportRows = (name: string, extra?: ReportParams) => Promise<Row[]>;

/** The cap of the event lists: far above a load test's lock events. */
export const LOCK_EVENTS_LIMIT = 100_000;

/**
 * Runs the report's queries and builds it. `top` caps the lock-space and context lists; `waits: false` leaves
 * single waits out (the HTML page shows them per minute, space and context instead).
 */
export async function fetchLocksReport(rows: ReadReportRows, o: { top: { regions: number; contexts: number }; waits: boolean }): Promise<LocksReport> {
  const all = { limit: LOCK_EVENTS_LIMIT };
  return locksReport({
    culprits: await rows('tj-lock-culprits', all), deadlocks: await rows('tj-lock-deadlocks', all),
    waits: o.waits ? await rows('tj-lock-wait-events', all) : [], regions: await rows('tj-lock-waits', { limit: o.top.regions }),
    minutes: await rows('tj-lock-minutes', all), contexts: await rows('tj-lock-contexts', { limit: o.top.contexts }),
  });
}

export function locksReport(rows: LocksReportRows): LocksReport {
  const byKind = groupBy(rows.culprits, (r) => str(r.kind));
  const waitCulprits = groupBy(byKind.get('wait') ?? [], eventKey);
  const edgeCulprits = groupBy(byKind.get('deadlock') ?? [], (r) => `${eventKey(r)}|${str(r.victim_connect_id)}|${str(r.culprit_connect_id)}`);
  const timeouts = [...groupBy(byKind.get('timeout') ?? [], eventKey).values()].map((group): LockTimeout => {
    const first = group[0] as Row;
    // Culprit 0 = the timeout named no waited-for connection (tj-lock-culprits.sql keeps the victim with culprit 0).
    const culprits = group.filter((r) => Number(r.culprit_connect_id) !== 0).map((r) => lockCulprit(r));
    return {
      ts: isoTime(first.ts), infobase: str(first.infobase), victim_connect_id: Number(first.victim_connect_id),
      victim_user: str(first.victim_user), victim_context: str(first.victim_context),
      culprit_connect_ids: culprits.map((c) => c.connect_id), culprits,
    };
  });
  return {
    waits: rows.waits.map((r) => ({
      ts: isoTime(r.ts), infobase: str(r.infobase), connect_id: Number(r.connect_id), user: str(r.user), context: str(r.context),
      regions: Array.isArray(r.regions) ? r.regions.map(String) : [], wait_ms: Number(r.wait_ms), culprit_connect_ids: ids(r.wait_connections),
      culprits: (waitCulprits.get(eventKey(r)) ?? []).map((c) => lockCulprit(c)),
    })),
    timeouts,
    deadlocks: rows.deadlocks.map((r) => {
      const victim = Number(r.connect_id);
      const edges = parseDeadlockEdges(str(r.deadlock_intersections)).map((e): DeadlockEdgeOut => {
        const found = edgeCulprits.get(`${eventKey(r)}|${e.waiter}|${e.holder}`)?.[0];
        const requested = parseLockItem(`${e.space} ${e.mode} ${e.fields}`);
        return {
          waiter: Number(e.waiter), holder: Number(e.holder), region: e.space, mode: e.mode, lock: e.fields,
          culprit: found === undefined ? null : lockCulprit(found, requested === null ? [] : [requested]),
        };
      });
      return {
        ts: isoTime(r.ts), infobase: str(r.infobase), victim_connect_id: victim, victim_user: str(r.user), victim_context: str(r.context),
        culprit_connect_ids: [...new Set(edges.filter((e) => e.waiter === victim).map((e) => e.holder))], edges,
      };
    }),
    top_regions: rows.regions.map((r) => ({
      infobase: str(r.infobase), region: str(r.region), waits: Number(r.waits), total_wait_ms: Number(r.total_wait_ms),
      max_wait_ms: Number(r.max_wait_ms), waiting_connections: Number(r.waiting_connections),
    })),
    per_minute: rows.minutes.map((r) => ({ minute: isoTime(r.minute), infobase: str(r.infobase), ...totals(r) })),
    top_contexts: rows.contexts.map((r) => ({ infobase: str(r.infobase), context: str(r.context), ...totals(r) })),
  };
}

/** `tx 14:45:29 → 14:45:33 commit (context); holds Reference10.REFLOCK Exclusive ID=… since 14:45:30 (exact)`. */
function culpritDetail(c: LockCulprit): string {
  const tx = c.tx_start === null ? 'transaction not in the log'
    : `tx ${c.tx_start} → ${c.tx_end ?? 'open'}${c.tx_outcome ? ` ${c.tx_outcome}` : ''}${c.tx_context ? ` (${c.tx_context})` : ''}`;
  const lock = c.lock === null ? 'conflicting lock not in the log'
    : `holds ${`${c.lock.region} ${c.lock.mode} ${c.lock.lock}`.trim()} since ${c.lock.ts} (${c.lock.match})`;
  return `${tx}; ${lock}`;
}

/** One line per victim and culprit, deadlock edge, lock space, minute and context, for people (table) or spreadsheets (csv, one `kind` column). */
export function locksText(r: LocksReport, format: 'table' | 'csv'): string {
  const out: string[][] = [['kind', 'ts', 'infobase', 'victim / waiter', 'culprit / holder', 'detail']];
  const who = (id: number, user: string | null) => `${id} ${user ?? ''}`.trim();
  for (const t of r.timeouts) {
    if (t.culprits.length === 0) out.push(['timeout', t.ts, t.infobase, who(t.victim_connect_id, t.victim_user), '', t.victim_context]);
    for (const c of t.culprits) out.push(['timeout', t.ts, t.infobase, who(t.victim_connect_id, t.victim_user), who(c.connect_id, c.tx_user ?? c.user), culpritDetail(c)]);
  }
  for (const d of r.deadlocks) {
    for (const e of d.edges) {
      const lock = `waits on ${`${e.region} ${e.mode} ${e.lock}`.trim()}`;
      out.push(['deadlock', d.ts, d.infobase, String(e.waiter), who(e.holder, e.culprit?.tx_user ?? e.culprit?.user ?? null), e.culprit ? `${lock}; ${culpritDetail(e.culprit)}` : lock]);
    }
  }
  for (const w of r.waits) {
    for (const c of w.culprits) out.push(['wait', w.ts, w.infobase, who(w.connect_id, w.user), who(c.connect_id, c.tx_user ?? c.user), `${w.wait_ms} ms; ${culpritDetail(c)}`]);
  }
  for (const g of r.top_regions) out.push(['region', '', g.infobase, '', '', `${g.region}: ${g.waits} waits, ${g.total_wait_ms} ms total, ${g.max_wait_ms} ms max`]);
  const sums = (x: LockTotals) => `${x.waits} waits, ${x.total_wait_ms} ms total, ${x.max_wait_ms} ms max, ${x.timeouts} timeouts, ${x.deadlocks} deadlocks`;
  for (const m of r.per_minute) out.push(['minute', m.minute, m.infobase, '', '', sums(m)]);
  for (const c of r.top_contexts) out.push(['context', '', c.infobase, '', '', `${c.context || '(no context)'}: ${sums(c)}`]);
  if (format === 'csv') return csvText(out);
  if (out.length === 1) return '(no lock timeouts, deadlocks or waits in this window)\n';
  const widths = out[0]!.map((_, i) => Math.max(...out.map((l) => [...(l[i] ?? '')].length)));
  return out.map((l) => l.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - [...c].length)).join('  ').trimEnd()).join('\n') + '\n';
}
