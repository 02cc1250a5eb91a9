// Managed-lock conflicts whose answers are known before any analysis runs (issue #5 item 8): each episode plants a
// culprit transaction, the lock of it that blocks, and a victim that waits, times out or deadlocks, and records what
// `report locks` must say about it — victim, culprit, transaction, conflicting lock (docs/tj-format.md §5.4).
//
// Every episode has its own 2-minute slot. Around the real conflict it plants what a careless analysis would pick:
// the culprit's earlier transaction holding the very same lock (committed before the wait), locks of the culprit's
// transaction that do not conflict (another value; Shared against Shared), and a connection with the culprit's
// number in the other infobase holding the same lock at the same time (numbers are per infobase, §5.4 step 2).
// Connection numbers come from a small pool, so later episodes reuse them, as the platform does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Prng } from './prng.js';
import { createPrng } from './prng.js';
import type { SimEvent } from './tj-scenarios.js';
import { createLocalClock, tjProcessFolder } from './tj-layout.js';
import { formatTjFile, type TjProperty, type TjRecord } from './tj-writer.js';
import { OPERATIONS, STRING_VALUES, USERS, type Operation } from './tj-vocabulary.js';

export type LockEpisodeKind = 'wait' | 'timeout' | 'deadlock';
export type LockMatch = 'exact' | 'escalation' | 'overlap';

/** One field of the report's culprit, as `report locks --format json` writes it. */
export interface ExpectedCulprit {
  connect_id: number; user: string | null; context: string | null;
  tx_start: string | null; tx_end: string | null; tx_outcome: 'commit' | 'rollback' | null; tx_user: string | null; tx_context: string | null;
  lock: { ts: string; region: string; mode: string; lock: string; context: string; match: LockMatch } | null;
}
export interface ExpectedWait { ts: string; infobase: string; connect_id: number; user: string; context: string; regions: string[]; wait_ms: number; culprit_connect_ids: number[]; culprits: ExpectedCulprit[] }
export interface ExpectedTimeout { ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string; culprit_connect_ids: number[]; culprits: ExpectedCulprit[] }
export interface ExpectedDeadlock {
  ts: string; infobase: string; victim_connect_id: number; victim_user: string; victim_context: string; culprit_connect_ids: number[];
  edges: Array<{ waiter: number; holder: number; region: string; mode: string; lock: string; culprit: ExpectedCulprit }>;
}

export interface LockScenario {
  /** All events, each with the infobase connection it belongs to; `writeTjTree`-style placement is the caller's. */
  events: SimEvent[];
  waits: ExpectedWait[];
  timeouts: ExpectedTimeout[];
  deadlocks: ExpectedDeadlock[];
}

export interface LockScenarioOptions { seed: number; start: Date; episodes: number }

const IBS = ['erp_load', 'zup_load'] as const;
const SLOT_US = 120_000_000;
const MS = 1000;
/** Episode kinds cycle so that every run has all three; the match class is drawn. */
const KINDS: readonly LockEpisodeKind[] = ['wait', 'timeout', 'deadlock'];

interface Conn { ib: string; id: number; user: string; op: Operation }
interface Lock { space: string; field: string; kind: Operation['locks'][number]['kind']; value: string }

const iso = (us: number): string => `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 19)}.${String(us % 1_000_000).padStart(6, '0')}Z`;
const item = (l: Lock, mode: string): string => `${l.space} ${mode} ${l.field}=${l.value}`;
const tableCode = (space: string): string => /\d+/.exec(space)?.[0] ?? '0';

function lockValue(rng: Prng, kind: Lock['kind'], space: string, month: number): string {
  if (kind === 'ref') return `${tableCode(space)}:${rng.hex(32)}`;
  if (kind === 'string') return `"${rng.pick(STRING_VALUES).replaceAll('"', '""')}"`;
  if (kind === 'number') return String(rng.int(0, 40));
  return `T"2026${String(month).padStart(2, '0')}01000000"`;
}

/** A lock the victim will request, and one on the same field with another value (never intersecting). */
function lockPair(rng: Prng, op: Operation): [Lock, Lock] {
  const spec = rng.pick(op.locks);
  const month = rng.int(3, 12);
  const a: Lock = { ...spec, value: lockValue(rng, spec.kind, spec.space, month) };
  let other = a.value;
  while (other === a.value) other = lockValue(rng, spec.kind, spec.space, spec.kind === 'date' ? month - rng.int(1, 2) : month);
  return [a, { ...spec, value: other }];
}

/** The culprit's item that blocks `want` with the given class (docs/tj-format.md §5.4 step 4). */
function blockingItem(rng: Prng, want: Lock, match: LockMatch): string {
  const mode = rng.pick(['Exclusive', 'Shared']);
  if (match === 'exact') return item(want, mode);
  if (match === 'escalation') return `${want.space} ${mode}`;
  // A range that covers a date, or the same value plus a field the request does not name.
  if (want.kind === 'date') return `${want.space} ${mode} ${want.field}=[T"20260101000000":+]`;
  return `${item(want, mode)} Fld${tableCode(want.space)}9=${rng.int(0, 9)}`;
}

export function buildLockScenario(options: LockScenarioOptions): LockScenario {
  const rng = createPrng(options.seed);
  const startUs = options.start.getTime() * 1000;
  const events: Array<SimEvent & { conn: Conn }> = [];
  const out: LockScenario = { events, waits: [], timeouts: [], deadlocks: [] };
  let clientId = 100;

  const emit = (c: Conn, name: string, endUs: number, durationUs: number, props: TjProperty[], context = true): void => {
    const identity: TjProperty[] = [['process', 'rphost'], ['p:processName', c.ib], ['t:clientID', String(clientId++)],
      ['t:applicationName', '1CV8C'], ['t:connectID', String(c.id)], ['Usr', c.user]];
    const stack = `${c.op.call}\n${c.op.stack.map((l, i) => '\t'.repeat(i + 1) + l).join('\n')}`;
    events.push({ conn: c, end_us: endUs, duration_us: durationUs, name, depth: 4, props: [...identity, ...props, ...(context ? [['Context', stack] as const] : [])] });
  };
  const sdbl = (c: Conn, func: string, at: number) => emit(c, 'SDBL', at, 50, [['Trans', func === 'BeginTransaction' ? '1' : '0'], ['Func', func]]);
  const tlock = (c: Conn, at: number, duration: number, locks: string[], waitFor: number | null) => {
    const regions = [...new Set(locks.map((l) => l.split(' ')[0] as string))];
    emit(c, 'TLOCK', at, duration, [['Regions', regions.join(',')], ['Locks', locks.join(',')], ['WaitConnections', waitFor === null ? '' : String(waitFor)]]);
  };
  /** What the report says of a culprit's connection: its last event with a context at or before `t` (§5.4 step 2). */
  const lastEvent = (c: Conn, t: number) => {
    const mine = events.filter((e) => e.conn.ib === c.ib && e.conn.id === c.id && e.end_us <= t && e.props.some(([k]) => k === 'Context'));
    const last = mine.reduce<(typeof mine)[number] | null>((a, e) => (a === null || e.end_us >= a.end_us ? e : a), null);
    return last === null ? { user: null, context: null } : { user: last.conn.user, context: last.conn.op.call };
  };
  const conflicting = (c: Conn, at: number, text: string, match: LockMatch) => {
    const [space, mode, ...fields] = text.split(' ');
    return { ts: iso(at), region: space as string, mode: mode as string, lock: fields.join(' '), context: c.op.call, match };
  };

  for (let k = 0; k < options.episodes; k++) {
    const t0 = startUs + k * SLOT_US;
    const ib = IBS[k % 2] as string;
    const other = IBS[(k + 1) % 2] as string;
    const kind = KINDS[k % KINDS.length] as LockEpisodeKind;
    const a = rng.int(1, 6);
    let b = rng.int(1, 6);
    while (b === a) b = rng.int(1, 6);
    const conn = (id: number, inIb = ib): Conn => ({ ib: inIb, id, user: rng.pick(USERS), op: rng.pick(OPERATIONS) });
    const culprit = conn(a);
    const victim = conn(b);
    const [want, near] = lockPair(rng, victim.op);
    const at = (ms: number) => t0 + ms * MS;

    if (kind === 'deadlock') {
      // a holds x, b holds y; a asks for y and waits, b asks for x: a cycle, b is the victim (§5.3).
      const x = want;
      let [y] = lockPair(rng, culprit.op);
      while (item(y, 'Exclusive') === item(x, 'Exclusive')) [y] = lockPair(rng, culprit.op);
      sdbl(culprit, 'BeginTransaction', at(100));
      sdbl(victim, 'BeginTransaction', at(150));
      tlock(culprit, at(200), 3, [item(x, 'Exclusive')], null);
      tlock(victim, at(250), 4, [item(y, 'Exclusive')], null);
      const detected = at(500);
      emit(victim, 'TDEADLOCK', detected, 0, [['DeadlockConnectionIntersections', `${b} ${a} ${item(x, 'Exclusive')},${a} ${b} ${item(y, 'Exclusive')}`]]);
      sdbl(victim, 'RollbackTransaction', at(510));
      const granted = at(520);
      tlock(culprit, granted, 220 * MS, [item(y, 'Exclusive')], b);
      sdbl(culprit, 'CommitTransaction', at(600));
      const culpritOfVictim: ExpectedCulprit = {
        connect_id: a, ...lastEvent(culprit, detected), tx_start: iso(at(100)), tx_end: iso(at(600)), tx_outcome: 'commit',
        tx_user: culprit.user, tx_context: culprit.op.call, lock: conflicting(culprit, at(200), item(x, 'Exclusive'), 'exact'),
      };
      const victimAsHolder = (t: number): ExpectedCulprit => ({
        connect_id: b, ...lastEvent(victim, t), tx_start: iso(at(150)), tx_end: iso(at(510)), tx_outcome: 'rollback',
        tx_user: victim.user, tx_context: victim.op.call, lock: conflicting(victim, at(250), item(y, 'Exclusive'), 'exact'),
      });
      out.deadlocks.push({
        ts: iso(detected), infobase: ib, victim_connect_id: b, victim_user: victim.user, victim_context: victim.op.call, culprit_connect_ids: [a],
        edges: [
          { waiter: b, holder: a, region: x.space, mode: 'Exclusive', lock: `${x.field}=${x.value}`, culprit: culpritOfVictim },
          { waiter: a, holder: b, region: y.space, mode: 'Exclusive', lock: `${y.field}=${y.value}`, culprit: victimAsHolder(detected) },
        ],
      });
      out.waits.push({
        ts: iso(granted), infobase: ib, connect_id: a, user: culprit.user, context: culprit.op.call, regions: [y.space], wait_ms: 220,
        culprit_connect_ids: [b], culprits: [victimAsHolder(granted)],
      });
      continue;
    }

    const match = rng.pick<LockMatch>(['exact', 'escalation', 'overlap']);
    const blocking = blockingItem(rng, want, match);
    // The victim also asks for a Shared lock the culprit holds Shared: no conflict, so never the answer.
    const [shared] = lockPair(rng, culprit.op);
    const sharedSpaceDiffers = shared.space !== want.space;
    // Decoys first: the culprit's earlier transaction with the very lock, and its namesake in the other infobase.
    sdbl(culprit, 'BeginTransaction', at(5));
    tlock(culprit, at(10), 3, [item(want, 'Exclusive')], null);
    sdbl(culprit, 'CommitTransaction', at(40));
    const namesake = conn(a, other);
    sdbl(namesake, 'BeginTransaction', at(90));
    tlock(namesake, at(210), 3, [item(want, 'Exclusive')], null);
    // Now and then the culprit's transaction is not in the log (SDBL filtered out, §5.4 "Gaps"): the report must
    // then say so, and still find the lock among what the culprit took after its last logged transaction.
    const logged = k % 4 !== 1;
    if (logged) sdbl(culprit, 'BeginTransaction', at(100));
    tlock(culprit, at(200), 3, [item(near, 'Exclusive'), ...(sharedSpaceDiffers ? [item(shared, 'Shared')] : [])], null);
    tlock(culprit, at(300), 5, [blocking], null);
    sdbl(victim, 'BeginTransaction', at(800));
    const request = [item(want, 'Exclusive'), ...(sharedSpaceDiffers ? [item(shared, 'Shared')] : [])];
    const waitStart = at(1000);
    const duration = kind === 'timeout' ? 20_000_000 + rng.int(0, 400) * 100 : rng.int(500, 50_000) * 100;
    const waitEnd = waitStart + duration;
    const txEnd = kind === 'timeout' ? waitEnd + rng.int(1000, 5000) * MS : waitEnd - 100;
    if (kind === 'wait' && logged) {
      // A busy culprit opens its next transaction before the victim's TLOCK is written: the transaction that held
      // the lock is the one open when the wait began, not the latest.
      sdbl(culprit, 'CommitTransaction', txEnd);
      sdbl(culprit, 'BeginTransaction', waitEnd - 50);
      sdbl(culprit, 'CommitTransaction', waitEnd + 20 * MS);
    }
    tlock(victim, waitEnd, duration, request, a);
    const expected = (t: number): ExpectedCulprit => ({
      connect_id: a, ...lastEvent(culprit, t),
      ...(logged
        ? { tx_start: iso(at(100)), tx_end: iso(txEnd), tx_outcome: 'commit' as const, tx_user: culprit.user, tx_context: culprit.op.call }
        : { tx_start: null, tx_end: null, tx_outcome: null, tx_user: null, tx_context: null }),
      lock: conflicting(culprit, at(300), blocking, match),
    });
    const regions = [...new Set(request.map((r) => r.split(' ')[0] as string))];
    const wait: ExpectedWait = {
      ts: iso(waitEnd), infobase: ib, connect_id: b, user: victim.user, context: victim.op.call, regions, wait_ms: duration / 1000,
      culprit_connect_ids: [a], culprits: [],
    };
    if (kind === 'timeout') {
      const gaveUp = waitEnd + 100;
      emit(victim, 'TTIMEOUT', gaveUp, 0, [['WaitConnections', String(a)]]);
      sdbl(victim, 'RollbackTransaction', gaveUp + 200);
      if (logged) sdbl(culprit, 'CommitTransaction', txEnd);
      out.timeouts.push({ ts: iso(gaveUp), infobase: ib, victim_connect_id: b, victim_user: victim.user, victim_context: victim.op.call, culprit_connect_ids: [a], culprits: [expected(gaveUp)] });
    } else {
      sdbl(victim, 'CommitTransaction', waitEnd + 10 * MS);
    }
    wait.culprits.push(expected(waitEnd));
    out.waits.push(wait);
    sdbl(namesake, 'CommitTransaction', at(40_000));
  }
  out.waits.sort((x, y) => (x.ts < y.ts ? -1 : x.ts > y.ts ? 1 : 0));
  events.sort((x, y) => x.end_us - y.end_us);
  return out;
}

/** Writes the events as one rphost's TJ (`<dir>/rphost_4242/<yymmddhh>.log`, server clock in `timeZone`); returns the files. */
export function writeLockScenario(dir: string, scenario: LockScenario, timeZone: string): string[] {
  const clock = createLocalClock(timeZone);
  const folder = join(dir, tjProcessFolder('rphost', 4242));
  const files = new Map<string, TjRecord[]>();
  for (const e of scenario.events) {
    const { hour, ...at } = clock(e.end_us);
    const records = files.get(hour) ?? [];
    records.push({ ...at, duration_us: e.duration_us, name: e.name, depth: e.depth, props: e.props });
    files.set(hour, records);
  }
  mkdirSync(folder, { recursive: true });
  return [...files].map(([hour, records]) => {
    const path = join(folder, `${hour}.log`);
    writeFileSync(path, formatTjFile(records));
    return path;
  });
}
