// The cast and timetable of a simulated load test: the users' sessions, the lock conflicts planned between pairs of
// them, and each session's stream of TJ events (ordinary operations from tj-scenarios.ts around its planned ones).
//
// Conflicts are planned first, at spread-out instants, each between two free sessions of one infobase. A session's
// stream then alternates think time and operations; an ordinary operation that would overlap a planned one is
// dropped and the planned one takes its place, so the two sides of a conflict happen exactly as planned.
import { createPrng, type Prng } from './prng.js';
import { createSessions, type SimProcess, type SimSession } from './tj-session.js';
import { buildOperation, DEFAULT_RATES, type ScenarioRates, type SimEvent } from './tj-scenarios.js';
import { INFOBASES } from './tj-vocabulary.js';
import { buildConflict, CONFLICT_KINDS, CONFLICT_SPAN_US, pgExtension, type Conflict, type ConflictKind } from './load-conflicts.js';
import type { FixedOp } from './load-op.js';
import type { PgLogEntry } from './pg-log-writer.js';
import type { ExpectedLocks } from './load-expected.js';

/** Ordinary operations carry no lock trouble: every wait in the run is a planned, two-sided conflict. */
const QUIET: ScenarioRates = { ...DEFAULT_RATES, lockWait: 0, lockTimeout: 0, deadlock: 0 };

export interface LoadPlanOptions {
  seed: number;
  users: number;
  startUs: number;
  endUs: number;
  /** Target TJ events per second over all users. */
  rate: number;
  /** Conflicts per minute of run; the kinds take turns. */
  conflictsPerMinute: number;
}

export interface LoadPlan {
  sessions: SimSession[];
  processes: SimProcess[];
  /** Planned operations per session index, in time order. */
  fixed: Map<number, FixedOp[]>;
  /** PostgreSQL lock-wait entries of the conflicts, in time order. */
  pg: PgLogEntry[];
  expected: ExpectedLocks;
  thinkUs: number;
  conflicts: Record<ConflictKind, number>;
  /** Whether the run holds the planted relation-extension wait (a run too short or too small has none). */
  extensionWait: boolean;
}

/** The relation-extension wait keeps its two sessions busy at most this long, µs. */
const EXTENSION_SPAN_US = 4_000_000;

/** Events per operation and its wall time, measured on a sample: the think time that gives the asked-for rate. */
function thinkTime(seed: number, users: number, rate: number): number {
  const rng = createPrng(seed ^ 0x5eed);
  const [s] = createSessions(rng, { processes: [{ name: 'rphost', pid: 1 }], sessionsPerProcess: 1, infobases: INFOBASES });
  let events = 0;
  let wall = 0;
  for (let i = 0; i < 400; i++) {
    const op = buildOperation(rng, s as SimSession, 0, QUIET);
    events += op.length;
    wall += (op[op.length - 1] as SimEvent).end_us;
  }
  const perOpUs = (users * (events / 400) * 1e6) / rate;
  return Math.max(1_000, perOpUs - wall / 400);
}

export function planLoad(o: LoadPlanOptions): LoadPlan {
  const rng = createPrng(o.seed);
  // One rphost per 10 users, as a cluster with a few working processes spreads its connections.
  const processCount = Math.min(o.users, Math.max(2, Math.ceil(o.users / 10)));
  const processes: SimProcess[] = [];
  for (let i = 0; i < processCount; i++) processes.push({ name: 'rphost', pid: 1000 + i * 4000 + rng.int(1, 3999) });
  const sessions = createSessions(rng, { processes, sessionsPerProcess: Math.ceil(o.users / processCount), infobases: INFOBASES }).slice(0, o.users);
  // Backend pids are unique on one PostgreSQL server at a time: the join from PG waits to TJ connections needs it.
  const pids = new Set<number>();
  for (const s of sessions) {
    while (pids.has(s.dbpid)) s.dbpid += 1;
    pids.add(s.dbpid);
  }
  const expected: ExpectedLocks = { waits: [], timeouts: [], deadlocks: [], pg_episodes: [] };
  const fixed = new Map<number, FixedOp[]>(sessions.map((s) => [s.index, []]));
  const pg: PgLogEntry[] = [];
  const conflicts = Object.fromEntries(CONFLICT_KINDS.map((k) => [k, 0])) as Record<ConflictKind, number>;
  // When each session is taken by a planned operation: a conflict needs both its sessions free over its whole span.
  const busy = new Map<number, Array<readonly [number, number]>>();
  const freeOver = (s: SimSession, from: number, to: number): boolean => (busy.get(s.index) ?? []).every(([a, b]) => b + 200_000 < from || a > to + 200_000);
  let xid = 7_000 + rng.int(0, 90_000);
  const ctx = { rng, nextXid: () => xid++, expected };
  const count = Math.floor(((o.endUs - o.startUs) / 60e6) * o.conflictsPerMinute);
  const first = o.startUs + 3_000_000;
  const step = count > 0 ? (o.endUs - first) / count : 0;
  /** Two free sessions of one infobase at `t0` for a conflict lasting `span`, or null. */
  const pair = (t0: number, span: number): [SimSession, SimSession] | null => {
    // The conflict and the operation around it must end inside the run.
    if (t0 + span + 2_000_000 >= o.endUs) return null;
    const free = sessions.filter((s) => freeOver(s, t0, t0 + span));
    const infobases = INFOBASES.filter((ib) => free.filter((s) => s.infobase === ib).length >= 2);
    if (infobases.length === 0) return null;
    const ib = rng.pick(infobases);
    const pool = free.filter((s) => s.infobase === ib);
    const a = rng.pick(pool);
    return [a, rng.pick(pool.filter((s) => s !== a))];
  };
  const take = (conflict: Conflict): void => {
    for (const op of conflict.ops) {
      fixed.get(op.session.index)?.push(op);
      busy.set(op.session.index, [...(busy.get(op.session.index) ?? []), [op.start_us, op.end_us]]);
    }
    pg.push(...conflict.pg);
  };
  // The planted relation-extension wait, once, two fifths into the run (before the conflicts claim sessions).
  const extensionAt = Math.round(o.startUs + (o.endUs - o.startUs) * 0.4);
  const extensionPair = pair(extensionAt, EXTENSION_SPAN_US);
  if (extensionPair !== null) take(pgExtension(ctx, extensionAt, extensionPair[0], extensionPair[1]));
  for (let i = 0; i < count; i++) {
    const kind = CONFLICT_KINDS[i % CONFLICT_KINDS.length] as ConflictKind;
    const t0 = Math.round(first + i * step + rng.int(0, Math.max(1, Math.round(step / 4))));
    const sides = pair(t0, CONFLICT_SPAN_US[kind]);
    if (sides === null) continue;
    take(buildConflict(ctx, kind, t0, sides[0], sides[1]));
    conflicts[kind]++;
  }
  for (const ops of fixed.values()) ops.sort((x, y) => x.start_us - y.start_us);
  pg.sort((x, y) => x.at_us - y.at_us);
  return { sessions, processes, fixed, pg, expected, thinkUs: thinkTime(o.seed, o.users, o.rate), conflicts, extensionWait: extensionPair !== null };
}

/** A session's events in end order until `endUs`: ordinary operations around its planned ones. */
export function* sessionEvents(plan: LoadPlan, s: SimSession, rng: Prng, startUs: number, endUs: number,
  place: (s: SimSession, events: readonly SimEvent[]) => readonly SimEvent[] = (_s, events) => events): Generator<SimEvent> {
  const fixed = plan.fixed.get(s.index) ?? [];
  let next = 0;
  let cursor = startUs;
  // Users start at different moments: the first think time is drawn over the whole mean.
  while (cursor < endUs) {
    const planned = fixed[next];
    const opStart = cursor + Math.round(rng.exp(plan.thinkUs)) + 1;
    let events: SimEvent[] | null = null;
    if (planned === undefined || opStart < planned.start_us - 1_000) {
      events = buildOperation(rng, s, opStart, QUIET);
      const end = (events[events.length - 1] as SimEvent).end_us;
      if (planned !== undefined && end >= planned.start_us - 1_000) events = null;
    }
    if (events === null && planned !== undefined) {
      events = planned.events;
      next++;
    }
    if (events === null) break;
    for (const ev of place(s, events)) {
      if (ev.end_us >= endUs) return;
      yield ev;
    }
    cursor = (events[events.length - 1] as SimEvent).end_us;
  }
}
