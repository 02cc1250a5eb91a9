// `perfpipe report locks`: lock timeouts with their culprits, deadlocks as wait-for edges, managed-lock waits and
// the lock spaces waited on most, from tj_events (tj-format.md §5). SQL finds the events; deadlock edges are
// split here with the alerter's parser (ingest/alert/deadlock-edges.ts), which knows quoted commas.
import { parseDeadlockEdges } from '../alert/deadlock-edges.js';

export interface LockCulprit { connect_id: number; user: string | null; context: string | null }
export interface LockTimeout {
  ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string;
  culprit_connect_ids: number[]; culprits: LockCulprit[];
}
export interface DeadlockEdgeOut { waiter: number; holder: number; region: string; mode: string; lock: string }
export interface Deadlock { ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string; edges: DeadlockEdgeOut[] }
export interface LockWait { ts: string; infobase: string; connect_id: number; user: string; context: string; regions: string[]; wait_ms: number; culprit_connect_ids: number[] }
export interface LockRegion { infobase: string; region: string; waits: number; total_wait_ms: number; max_wait_ms: number; waiting_connections: number }
export interface LocksReport { waits: LockWait[]; timeouts: LockTimeout[]; deadlocks: Deadlock[]; top_regions: LockRegion[] }

type Row = Record<string, unknown>;
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);
/** tj_events.ts is DateTime64(6, 'UTC'), written `YYYY-MM-DD hh:mm:ss.ffffff`: ISO with Z, so scripts need no zone rule. */
const iso = (v: unknown): string => str(v).replace(' ', 'T') + (str(v) === '' ? '' : 'Z');

/** `victims`: tj-lock-victims.sql (one row per victim and culprit); `deadlocks`, `waits`, `regions`: their SQL files. */
export function locksReport(victims: Row[], deadlocks: Row[], waits: Row[], regions: Row[]): LocksReport {
  const timeouts = new Map<string, LockTimeout>();
  for (const r of victims) {
    if (r.event !== 'TTIMEOUT') continue;
    const key = `${iso(r.ts)}|${str(r.infobase)}|${str(r.victim_connect_id)}`;
    let t = timeouts.get(key);
    if (t === undefined) {
      t = { ts: iso(r.ts), infobase: str(r.infobase), victim_connect_id: Number(r.victim_connect_id), victim_user: str(r.victim_user), victim_context: str(r.victim_context), culprit_connect_ids: [], culprits: [] };
      timeouts.set(key, t);
    }
    const id = Number(r.culprit_connect_id);
    // 0 = the timeout named no waited-for connection (tj-lock-victims.sql keeps the victim with culprit 0).
    if (id === 0) continue;
    t.culprit_connect_ids.push(id);
    t.culprits.push({ connect_id: id, user: r.culprit_user ? str(r.culprit_user) : null, context: r.culprit_context ? str(r.culprit_context) : null });
  }
  return {
    waits: waits.map((r) => ({
      ts: iso(r.ts), infobase: str(r.infobase), connect_id: Number(r.connect_id), user: str(r.user), context: str(r.context),
      regions: Array.isArray(r.regions) ? r.regions.map(String) : [], wait_ms: Number(r.wait_ms), culprit_connect_ids: ids(r.wait_connections),
    })),
    timeouts: [...timeouts.values()],
    deadlocks: deadlocks.map((r) => ({
      ts: iso(r.ts), infobase: str(r.infobase), victim_connect_id: Number(r.connect_id), victim_user: str(r.user), victim_context: str(r.context),
      edges: parseDeadlockEdges(str(r.deadlock_intersections)).map((e) => ({ waiter: Number(e.waiter), holder: Number(e.holder), region: e.space, mode: e.mode, lock: e.fields })),
    })),
    top_regions: regions.map((r) => ({
      infobase: str(r.infobase), region: str(r.region), waits: Number(r.waits), total_wait_ms: Number(r.total_wait_ms),
      max_wait_ms: Number(r.max_wait_ms), waiting_connections: Number(r.waiting_connections),
    })),
  };
}

const csvField = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** One line per timeout, deadlock edge and region, for people (table) or spreadsheets (csv, one `kind` column). */
export function locksText(r: LocksReport, format: 'table' | 'csv'): string {
  const out: string[][] = [['kind', 'ts', 'infobase', 'victim / waiter', 'culprits / holder', 'detail']];
  for (const t of r.timeouts) out.push(['timeout', t.ts, t.infobase, `${t.victim_connect_id} ${t.victim_user}`.trim(), t.culprit_connect_ids.join(' '), t.victim_context]);
  for (const d of r.deadlocks) {
    for (const e of d.edges) out.push(['deadlock', d.ts, d.infobase, String(e.waiter), String(e.holder), `${e.region} ${e.mode} ${e.lock}`.trim()]);
  }
  for (const w of r.top_regions) out.push(['region', '', w.infobase, '', '', `${w.region}: ${w.waits} waits, ${w.total_wait_ms} ms total, ${w.max_wait_ms} ms max`]);
  if (format === 'csv') return out.map((l) => l.map(csvField).join(',')).join('\n') + '\n';
  if (out.length === 1) return '(no lock timeouts, deadlocks or waits in this window)\n';
  const widths = out[0]!.map((_, i) => Math.max(...out.map((l) => [...(l[i] ?? '')].length)));
  return out.map((l) => l.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - [...c].length)).join('  ').trimEnd()).join('\n') + '\n';
}
