// `perfpipe report locks`: managed-lock waits, timeouts and deadlocks with their culprits — the culprit's transaction
// and the lock of it that conflicted (docs/tj-format.md §5.4) — and where the waiting went: lock spaces, minutes, contexts.
// Every episode was decided when it arrived and stored (tj_lock_episodes, §5.5): this reads the rows and shapes them;
// nothing here joins events. An episode not worked out yet says so (`culprit_status: 'pending'`).
import type { ReportParams } from './report-rows.js';
import { csvText } from './csv.js';
import { parseDeadlockEdges } from '../../parsers/tj/locks/deadlock-edges.js';
import { isoTime, type LockCulprit } from '../../parsers/tj/locks/lock-culprits.js';
import type { EpisodeStatus, LockCulpritEntry } from '../../schemas/tj-lock-episode-row.js';

export type { LockCulprit } from '../../parsers/tj/locks/lock-culprits.js';
/** How far the culprit side is worked out (docs/tj-format.md §5.5): `pending` lists no culprit details yet. */
export type CulpritStatus = EpisodeStatus;
export interface LockTimeout {
  ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string;
  culprit_connect_ids: number[]; culprits: LockCulprit[]; culprit_status: CulpritStatus;
}
export interface DeadlockEdgeOut { waiter: number; holder: number; region: string; mode: string; lock: string; culprit: LockCulprit | null }
export interface Deadlock {
  ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string;
  /** Holders of the edges on which the victim itself waits. */
  culprit_connect_ids: number[]; edges: DeadlockEdgeOut[]; culprit_status: CulpritStatus;
}
export interface LockWait {
  ts: string; infobase: string; connect_id: number; user: string; context: string; regions: string[]; wait_ms: number;
  culprit_connect_ids: number[]; culprits: LockCulprit[]; culprit_status: CulpritStatus;
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
/** Rows of the report's SQL files: tj-lock-episodes (per kind), tj-lock-waits, -minutes, -contexts. */
export interface LocksReportRows { waits: Row[]; timeouts: Row[]; deadlocks: Row[]; regions: Row[]; minutes: Row[]; contexts: Row[] }

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);
const totals = (r: Row): LockTotals => ({
  waits: Number(r.waits), total_wait_ms: Number(r.total_wait_ms), max_wait_ms: Number(r.max_wait_ms), timeouts: Number(r.timeouts), deadlocks: Number(r.deadlocks),
});

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
  const episodes = (kind: string): Promise<Row[]> => rows('tj-lock-episodes', { ...all, kind });
  return locksReport({
    waits: o.waits ? await episodes('wait') : [], timeouts: await episodes('timeout'), deadlocks: await episodes('deadlock'),
    regions: await rows('tj-lock-waits', { limit: o.top.regions }), minutes: await rows('tj-lock-minutes', all),
    contexts: await rows('tj-lock-contexts', { limit: o.top.contexts }),
  });
}

const flag = (v: unknown): boolean => v === 1 || v === true || v === '1';

/** A stored culprit entry as the report shows it (docs/tj-format.md §5.4 steps 3–5). */
export function culpritOf(e: LockCulpritEntry): LockCulprit {
  const tx = flag(e.tx_found);
  const ended = tx && flag(e.tx_end_found);
  return {
    connect_id: Number(e.holder),
    user: e.user ? e.user : null,
    context: e.context ? e.context : null,
    tx_start: tx ? isoTime(e.tx_start) : null,
    tx_end: ended ? isoTime(e.tx_end) : null,
    tx_outcome: ended ? (e.tx_end_func === 'CommitTransaction' ? 'commit' : 'rollback') : null,
    tx_user: tx ? e.tx_user : null,
    tx_context: tx ? e.tx_context : null,
    lock: flag(e.lock_found)
      ? { ts: isoTime(e.lock_ts), region: e.lock_region, mode: e.lock_mode, lock: e.lock_text, context: e.lock_context, match: e.lock_match as NonNullable<LockCulprit['lock']>['match'] }
      : null,
  };
}

const entries = (r: Row): LockCulpritEntry[] => (Array.isArray(r.culprits) ? r.culprits as LockCulpritEntry[] : []);
const status = (r: Row): CulpritStatus => str(r.status) as CulpritStatus;

/** The deadlock's edges: as stored once worked out, else split from the event (no culprit yet). */
function edgesOf(r: Row): DeadlockEdgeOut[] {
  if (status(r) !== 'pending') {
    return entries(r).map((e) => ({
      waiter: Number(e.waiter), holder: Number(e.holder), region: e.space, mode: e.mode, lock: e.item, culprit: flag(e.found) ? culpritOf(e) : null,
    }));
  }
  return parseDeadlockEdges(str(r.deadlock_intersections)).map((e) => ({ waiter: Number(e.waiter), holder: Number(e.holder), region: e.space, mode: e.mode, lock: e.fields, culprit: null }));
}

export function locksReport(rows: LocksReportRows): LocksReport {
  return {
    waits: rows.waits.map((r) => ({
      ts: isoTime(r.ts), infobase: str(r.infobase), connect_id: Number(r.victim_connect_id), user: str(r.victim_user), context: str(r.victim_context),
      regions: Array.isArray(r.regions) ? r.regions.map(String) : [], wait_ms: Number(r.wait_ms), culprit_connect_ids: ids(r.wait_connections),
      culprits: entries(r).map(culpritOf), culprit_status: status(r),
    })),
    timeouts: rows.timeouts.map((r): LockTimeout => {
      const culprits = entries(r).map(culpritOf);
      return {
        ts: isoTime(r.ts), infobase: str(r.infobase), victim_connect_id: Number(r.victim_connect_id),
        victim_user: str(r.victim_user), victim_context: str(r.victim_context),
        // Not worked out yet: the connections the TTIMEOUT itself names.
        culprit_connect_ids: status(r) === 'pending' ? ids(r.wait_connections) : culprits.map((c) => c.connect_id), culprits, culprit_status: status(r),
      };
    }),
    deadlocks: rows.deadlocks.map((r) => {
      const victim = Number(r.victim_connect_id);
      const edges = edgesOf(r);
      return {
        ts: isoTime(r.ts), infobase: str(r.infobase), victim_connect_id: victim, victim_user: str(r.victim_user), victim_context: str(r.victim_context),
        culprit_connect_ids: [...new Set(edges.filter((e) => e.waiter === victim).map((e) => e.holder))], edges, culprit_status: status(r),
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

/** The connections named while the culprit side is not worked out yet (docs/tj-format.md §5.5). */
const pendingIds = (x: { culprit_status: CulpritStatus; culprit_connect_ids: number[] }): string =>
  (x.culprit_status === 'pending' ? `${x.culprit_connect_ids.join(' ')} (pending)`.trim() : '');

/** One line per victim and culprit, deadlock edge, lock space, minute and context, for people (table) or spreadsheets (csv, one `kind` column). */
export function locksText(r: LocksReport, format: 'table' | 'csv'): string {
  const out: string[][] = [['kind', 'ts', 'infobase', 'victim / waiter', 'culprit / holder', 'detail']];
  const who = (id: number, user: string | null) => `${id} ${user ?? ''}`.trim();
  for (const t of r.timeouts) {
    if (t.culprits.length === 0) out.push(['timeout', t.ts, t.infobase, who(t.victim_connect_id, t.victim_user), pendingIds(t), t.victim_context]);
    for (const c of t.culprits) out.push(['timeout', t.ts, t.infobase, who(t.victim_connect_id, t.victim_user), who(c.connect_id, c.tx_user ?? c.user), culpritDetail(c)]);
  }
  for (const d of r.deadlocks) {
    for (const e of d.edges) {
      const lock = `waits on ${`${e.region} ${e.mode} ${e.lock}`.trim()}`;
      out.push(['deadlock', d.ts, d.infobase, String(e.waiter), who(e.holder, e.culprit?.tx_user ?? e.culprit?.user ?? null), e.culprit ? `${lock}; ${culpritDetail(e.culprit)}` : lock]);
    }
  }
  for (const w of r.waits) {
    if (w.culprits.length === 0) out.push(['wait', w.ts, w.infobase, who(w.connect_id, w.user), pendingIds(w), `${w.wait_ms} ms; culprits ${w.culprit_status}`]);
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
