// What one user operation leaves in the TJ of a 1C-on-PostgreSQL server: a CALL wrapping a transaction of
// SDBL, TLOCK and DBPOSTGRS events, sometimes a lock wait, a timeout (TTIMEOUT + EXCP) or a deadlock
// (TDEADLOCK + EXCP), shaped after the real lines in docs/tj-format.md §4–§5.
import type { Prng } from './prng.js';
import type { TjProperty } from './tj-writer.js';
import type { SimSession } from './tj-session.js';
import { EXCEPTION_SOURCES, INTERFACES, OPERATIONS, STRING_VALUES, type Operation } from './tj-vocabulary.js';
import { dbEvent, dominantEvent, DOMINANT } from './tj-sql.js';
import { callIdentity, DB_EVENTS, drawCallWait, splitCall, type CallSplit } from './call-split.js';

/** One event before serialization: the end instant is absolute (epoch µs), the header's clock comes from it. */
export interface SimEvent {
  end_us: number;
  duration_us: number;
  name: string;
  depth: number;
  props: TjProperty[];
  /** On a CALL: where its wall time went and the statements run inside it (call-split.ts), for expected.json. */
  call?: SimCall;
}

export interface SimCall {
  split: CallSplit;
  /** Each DB statement inside the call: its text and duration, µs. */
  statements: ReadonlyArray<readonly [string, number]>;
}

/** How often the rare outcomes happen per operation; a load test at its limit shows a few % of waits. */
export interface ScenarioRates {
  lockWait: number;
  lockTimeout: number;
  deadlock: number;
  lateContext: number;
}

export const DEFAULT_RATES: ScenarioRates = { lockWait: 0.05, lockTimeout: 0.01, deadlock: 0.004, lateContext: 0.05 };

const tableCode = (space: string): string => /\d+/.exec(space)?.[0] ?? '0';

/** `<space> <mode> <Field=value>` (§5.1); a field-less item locks the whole space. */
export function lockItem(rng: Prng, lock: Operation['locks'][number], mode: string): string {
  if (rng.chance(0.02)) return `${lock.space} ${mode}`;
  let value: string;
  if (lock.kind === 'ref') value = `${tableCode(lock.space)}:${rng.hex(32)}`;
  else if (lock.kind === 'string') value = `"${rng.pick(STRING_VALUES).replaceAll('"', '""')}"`;
  else if (lock.kind === 'number') value = String(rng.int(0, 40));
  else value = rng.chance(0.3) ? `[T"2026${String(rng.int(1, 12)).padStart(2, '0')}01000000":+]` : `T"20260301000000"`;
  return `${lock.space} ${mode} ${lock.field}=${value}`;
}

/** Multi-line call stack, tab-indented per level; background jobs start it with a line break (§3 `Context`). */
export function stackContext(session: SimSession, op: Operation): string {
  const lines = op.stack.map((line, i) => '\t'.repeat(i) + line);
  return session.app === 'BackgroundJob' ? `\n${lines.join('\n')}` : `${op.call}\n${lines.join('\n')}`;
}

export function buildOperation(rng: Prng, s: SimSession, startUs: number, rates: ScenarioRates): SimEvent[] {
  const op = rng.pick(OPERATIONS);
  const context = stackContext(s, op);
  const events: SimEvent[] = [];
  // The call first waits for a worker thread (`callWait`), then its first event starts.
  const callWait = drawCallWait(rng);
  let cursor = startUs + callWait + rng.int(5, 300);
  const emit = (name: string, depth: number, duration: number, props: TjProperty[]): SimEvent => {
    const ev: SimEvent = { end_us: cursor + duration, duration_us: duration, name, depth, props: [...s.identity, ...props] };
    events.push(ev);
    cursor = ev.end_us + rng.int(3, 250);
    return ev;
  };
  const db: TjProperty[] = [['DBMS', 'DBPOSTGRS'], ['DataBase', `pg-load-01\\${s.infobase}`]];
  const sdbl = (func: string, trans: string) => emit('SDBL', 4, rng.int(8, 400), [...db, ['Trans', trans], ['Func', func], ['Context', context]]);

  if (rng.chance(0.3)) {
    const i = rng.pick(INTERFACES);
    emit('SCALL', 3, rng.int(1, 900), [['ClientID', String(s.clientId + 1)], ['Interface', i.iface], ['IName', i.name],
      ['Method', '0'], ['CallID', String(s.nextCallId++)], ['MName', i.method], ['DstClientID', String(rng.int(1, 4000))]]);
  }
  if (rng.chance(0.3)) {
    // The 1C-level query that the reads below execute, in 1C's internal dialect (§6 "SDBL").
    const table = rng.pick(op.tables).slice(1);
    emit('SDBL', 4, rng.int(50, 5000), [...db, ['Trans', '0'],
      ['Sdbl', `SELECT ALLOWED\nQ_000_T_001.ID,\nQ_000_T_001.Description\nFROM\n${table} Q_000_T_001\nWHERE\n(Q_000_T_001.Marked = FALSE)`],
      ['Rows', String(rng.int(0, 200))], ['Context', context]]);
  }
  if (rng.chance(0.5)) dbEvent(rng, s, op, db, '0', context, emit); // a read before the transaction opens
  if (op.call === DOMINANT.operation) dominantEvent(rng, s, db, context, emit);
  sdbl('BeginTransaction', '1');
  let failed: 'timeout' | 'deadlock' | null = null;
  const steps = rng.int(1, 5);
  for (let step = 0; step < steps && failed === null; step++) {
    const lock = rng.pick(op.locks);
    const items = [lockItem(rng, lock, rng.chance(0.7) ? 'Exclusive' : 'Shared')];
    const regions = [lock.space];
    if (rng.chance(0.15)) {
      const other = rng.pick(op.locks);
      items.push(lockItem(rng, other, 'Shared'));
      if (!regions.includes(other.space)) regions.push(other.space);
    }
    const roll = rng.next();
    failed = roll < rates.deadlock ? 'deadlock' : roll < rates.deadlock + rates.lockTimeout ? 'timeout' : null;
    if (failed === 'deadlock') {
      // Written for the victim only: edges `<waiting> <holding> <lock item>` closing a cycle of 2 or 3 (§5.3).
      const others = [rng.pick(s.peers), ...(rng.chance(0.3) ? [rng.pick(s.peers)] : [])].filter((c, i, a) => a.indexOf(c) === i);
      const ring = [s.connectId, ...others];
      const edges = ring.map((c, i) => `${c} ${ring[(i + 1) % ring.length]} ${lockItem(rng, lock, 'Exclusive')}`);
      cursor += rng.int(100_000, 3_000_000);
      emit('TDEADLOCK', 6, 0, [['DeadlockConnectionIntersections', edges.join(',')], ['Context', context]]);
      break;
    }
    // A timed-out request leaves a TLOCK of about the 20 s infobase lock timeout, then TTIMEOUT naming the same
    // culprit: analysts pair the two by connection and duration (§5.2).
    const waited = failed === 'timeout' || rng.chance(rates.lockWait);
    const culprit = String(rng.pick(s.peers));
    const duration = failed === 'timeout' ? 20_000_000 + rng.int(0, 40_000)
      : waited ? Math.min(Math.round(rng.exp(1_500_000)) + 1000, 19_000_000) : rng.int(3, 25);
    const late = rng.chance(rates.lateContext);
    const tlockProps: TjProperty[] = [...db, ['Regions', regions.join(',')], ['Locks', items.join(',')],
      ['WaitConnections', waited ? culprit : '']];
    if (!late) tlockProps.push(['Context', context]);
    emit('TLOCK', rng.int(4, 6), duration, tlockProps);
    // The platform writes the context of a context-less TLOCK in a separate `Context` event right after (§5.1).
    if (late) emit('Context', 3, 0, [['Context', context]]);
    if (failed === 'timeout') {
      emit('TTIMEOUT', 5, 0, [['WaitConnections', culprit], ['Context', context]]);
      break;
    }
    for (let q = rng.int(1, 3); q > 0; q--) dbEvent(rng, s, op, db, '1', context, emit);
  }
  if (failed !== null) {
    const guid = `${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`;
    const reason = failed === 'timeout'
      ? 'Конфликт блокировок при выполнении транзакции:\nПревышено максимальное время ожидания предоставления блокировки'
      : 'Конфликт блокировок при выполнении транзакции:\nРазделяемая блокировка не может быть повышена до исключительной (deadlock)';
    // Rarely the message quotes a log line that itself looks like a TJ header: only quote tracking frames it right.
    const quoted = rng.chance(0.05) ? `\n${String(rng.int(10, 59))}:01.000001-0,TLOCK,4,process=rphost` : '';
    emit('EXCP', 4, 0, [['Exception', 'TLockException'],
      ['Descr', `${rng.pick(EXCEPTION_SOURCES)}:\n${guid}: ${reason}${quoted}`], ['Context', context]]);
    sdbl('RollbackTransaction', '0');
  } else {
    sdbl('CommitTransaction', '0');
  }
  const wall = cursor - startUs;
  const i = INTERFACES[0];
  const memory = rng.chance(0.2) ? -rng.int(1, 80_000) : rng.int(0, 2_000_000);
  const call = callOf(events, wall, callWait, rng);
  // The CALL ends last: its end is the end of everything it wrapped.
  events.push({ end_us: startUs + wall, duration_us: wall, name: 'CALL', depth: 2, call, props: [...callIdentity(s.identity, call.split),
    ['Context', op.call], ['Interface', i.iface], ['IName', i.name], ['Method', '0'],
    ['CallID', String(s.nextCallId++)], ['MName', i.method], ['Memory', String(memory)],
    ['MemoryPeak', String(Math.max(memory, 0) + rng.int(1000, 4_000_000))], ['InBytes', String(rng.int(0, 200_000))],
    ['OutBytes', String(rng.int(0, 300_000))], ['CpuTime', String(call.split.cpu_us)]] });
  return events;
}

/** The split of a call around `inner` (CPU takes 20–80 % of the time nothing else claims) and its statements. */
export function callOf(inner: readonly SimEvent[], wallUs: number, callWaitUs: number, rng: Prng): SimCall {
  const split = splitCall(inner, wallUs, callWaitUs, 0.2 + 0.6 * rng.next());
  const statements = inner.filter((ev) => DB_EVENTS.has(ev.name)).map((ev) => [ev.props.find((p) => p[0] === 'Sql')?.[1] ?? '', ev.duration_us] as const);
  return { split, statements };
}
