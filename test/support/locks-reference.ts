// The lock reports as they were before issue #28: the raw-event SQL kept in test/reference-sql/ and the TypeScript
// that shaped its rows. test/lock-episodes-reference.test.ts holds the stored episodes' reports equal to these.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../ingest/store/package-root.js';
import { parseDeadlockEdges } from '../../parsers/tj/locks/deadlock-edges.js';
import { parseLockItem, parseLockItems, type LockItem } from '../../parsers/tj/locks/lock-items.js';
import { conflictingLock, isoTime, type LockCulprit } from '../../parsers/tj/locks/lock-culprits.js';
import type { DeadlockEdgeOut, LocksReport } from '../../queries/reports/locks-report.js';

type Row = Record<string, unknown>;
/** Rows of the reference SQL files: tj-lock-culprits, -deadlocks, -wait-events, -waits, -minutes, -contexts. */
export interface ReferenceRows { culprits: Row[]; deadlocks: Row[]; waits: Row[]; regions: Row[]; minutes: Row[]; contexts: Row[] }

export const referenceSql = (name: string): string => readFileSync(join(packageRoot(), 'test', 'reference-sql', `${name}.sql`), 'utf8');

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);
const eventKey = (r: Row): string => `${str(r.file_key)}|${str(r.file_offset)}`;
const flag = (v: unknown): boolean => v === true || v === 1 || v === '1';

function groupBy(rows: Row[], key: (r: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return groups;
}

/** One row of tj-lock-culprits.sql → the culprit as the report showed it. */
export function lockCulprit(r: Row, requested: LockItem[] = parseLockItems(str(r.requested_locks))): LockCulprit {
  const tx = flag(r.tx_found);
  const ended = tx && flag(r.tx_end_found);
  return {
    connect_id: Number(r.culprit_connect_id),
    user: r.culprit_user ? str(r.culprit_user) : null,
    context: r.culprit_context ? str(r.culprit_context) : null,
    tx_start: tx ? isoTime(r.tx_start) : null,
    tx_end: ended ? isoTime(r.tx_end) : null,
    tx_outcome: ended ? (r.tx_end_func === 'CommitTransaction' ? 'commit' : 'rollback') : null,
    tx_user: tx ? str(r.tx_user) : null,
    tx_context: tx ? str(r.tx_context) : null,
    lock: conflictingLock(r.culprit_tlocks, requested),
  };
}

type Without<T> = Omit<T, 'culprit_status'>;
/** The report of before, which had no `culprit_status`. */
export type ReferenceLocksReport = Omit<LocksReport, 'waits' | 'timeouts' | 'deadlocks'> & {
  waits: Array<Without<LocksReport['waits'][number]>>; timeouts: Array<Without<LocksReport['timeouts'][number]>>;
  deadlocks: Array<Without<LocksReport['deadlocks'][number]>>;
};

export function referenceLocksReport(rows: ReferenceRows): ReferenceLocksReport {
  const byKind = groupBy(rows.culprits, (r) => str(r.kind));
  const waitCulprits = groupBy(byKind.get('wait') ?? [], eventKey);
  const edgeCulprits = groupBy(byKind.get('deadlock') ?? [], (r) => `${eventKey(r)}|${str(r.victim_connect_id)}|${str(r.culprit_connect_id)}`);
  const totals = (r: Row) => ({ waits: Number(r.waits), total_wait_ms: Number(r.total_wait_ms), max_wait_ms: Number(r.max_wait_ms), timeouts: Number(r.timeouts), deadlocks: Number(r.deadlocks) });
  return {
    waits: rows.waits.map((r) => ({
      ts: isoTime(r.ts), infobase: str(r.infobase), connect_id: Number(r.connect_id), user: str(r.user), context: str(r.context),
      regions: Array.isArray(r.regions) ? r.regions.map(String) : [], wait_ms: Number(r.wait_ms), culprit_connect_ids: ids(r.wait_connections),
      culprits: (waitCulprits.get(eventKey(r)) ?? []).map((c) => lockCulprit(c)),
    })),
    timeouts: [...groupBy(byKind.get('timeout') ?? [], eventKey).values()].map((group) => {
      const first = group[0] as Row;
      const culprits = group.filter((r) => Number(r.culprit_connect_id) !== 0).map((r) => lockCulprit(r));
      return {
        ts: isoTime(first.ts), infobase: str(first.infobase), victim_connect_id: Number(first.victim_connect_id),
        victim_user: str(first.victim_user), victim_context: str(first.victim_context), culprit_connect_ids: culprits.map((c) => c.connect_id), culprits,
      };
    }),
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

/** A report of now without the statuses the reference had not, to compare the rest. */
export function withoutStatus(r: LocksReport): ReferenceLocksReport {
  const strip = <T extends { culprit_status: unknown }>(xs: T[]): Array<Omit<T, 'culprit_status'>> => xs.map(({ culprit_status: _, ...rest }) => rest);
  return { ...r, waits: strip(r.waits), timeouts: strip(r.timeouts), deadlocks: strip(r.deadlocks) };
}
