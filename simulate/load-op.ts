// Builds one user operation event by event at chosen instants, for the lock conflicts of a load test whose timing
// must match the other side (load-conflicts.ts): the same shapes as tj-scenarios.ts, but the caller sets the clock.
import type { Prng } from './prng.js';
import type { SimEvent } from './tj-scenarios.js';
import { callOf, stackContext } from './tj-scenarios.js';
import { callIdentity, drawCallWait } from './call-split.js';
import type { SimSession } from './tj-session.js';
import type { TjProperty } from './tj-writer.js';
import { INTERFACES, type Operation } from './tj-vocabulary.js';

/** A finished operation of one session: its events in end order, all inside [start_us, end_us]. */
export interface FixedOp {
  session: SimSession;
  start_us: number;
  end_us: number;
  events: SimEvent[];
}

export interface OpBuilder {
  readonly op: Operation;
  /** The multi-line call context every inner event carries. */
  readonly context: string;
  readonly db: TjProperty[];
  /** End of the last event plus a small gap: where the next event starts by default. */
  cursor: number;
  /** An event that starts at `cursor` (or `startUs`) and lasts `duration` µs. */
  emit(name: string, depth: number, duration: number, props: TjProperty[], startUs?: number): SimEvent;
  sdbl(func: 'BeginTransaction' | 'CommitTransaction' | 'RollbackTransaction'): SimEvent;
  /** The CALL around everything emitted; ends the operation. */
  finish(): FixedOp;
}

export function createOpBuilder(rng: Prng, s: SimSession, op: Operation, startUs: number): OpBuilder {
  const context = stackContext(s, op);
  const events: SimEvent[] = [];
  const db: TjProperty[] = [['DBMS', 'DBPOSTGRS'], ['DataBase', `pg-load-01\\${s.infobase}`]];
  // The call waits for a worker thread first (`callWait`, call-split.ts), then its first event starts.
  const callWait = drawCallWait(rng);
  const b: OpBuilder = {
    op, context, db, cursor: startUs + callWait + rng.int(5, 300),
    emit(name, depth, duration, props, at) {
      const begin = at ?? b.cursor;
      const ev: SimEvent = { end_us: begin + duration, duration_us: duration, name, depth, props: [...s.identity, ...props] };
      events.push(ev);
      b.cursor = Math.max(b.cursor, ev.end_us + rng.int(3, 250));
      return ev;
    },
    sdbl(func) {
      const trans = func === 'BeginTransaction' ? '1' : '0';
      return b.emit('SDBL', 4, rng.int(8, 400), [...db, ['Trans', trans], ['Func', func], ['Context', context]]);
    },
    finish() {
      const wall = b.cursor - startUs;
      const i = INTERFACES[0];
      const memory = rng.int(0, 2_000_000);
      const call = callOf(events, wall, callWait, rng);
      events.push({ end_us: startUs + wall, duration_us: wall, name: 'CALL', depth: 2, call, props: [...callIdentity(s.identity, call.split),
        ['Context', op.call], ['Interface', i.iface], ['IName', i.name], ['Method', '0'], ['CallID', String(s.nextCallId++)],
        ['MName', i.method], ['Memory', String(memory)], ['MemoryPeak', String(memory + rng.int(1000, 4_000_000))],
        ['InBytes', String(rng.int(0, 200_000))], ['OutBytes', String(rng.int(0, 300_000))], ['CpuTime', String(call.split.cpu_us)]] });
      // Stable sort: events that end at the same µs keep the order they were written in.
      events.sort((x, y) => x.end_us - y.end_us);
      return { session: s, start_us: startUs, end_us: startUs + wall, events };
    },
  };
  return b;
}

/** The statement a blocked or blocking 1C transaction runs: one row of a register, by its key (§4.1 shapes). */
export function updateSql(table: string): string {
  return `UPDATE ${table} SET _Version = _Version + 1, _Fld20643 = $2\nWHERE _IDRRef = $1`;
}

export function updateEvent(b: OpBuilder, s: SimSession, table: string, duration: number, startUs: number | undefined, keyHex: string, failed = false): SimEvent {
  return b.emit('DBPOSTGRS', 5, duration, [...b.db, ['Trans', '1'], ['dbpid', String(s.dbpid)], ['Sql', updateSql(table)],
    ['Prm', `p_1: '\\\\x${keyHex}'::bytea\np_2: 'Основной склад'::mvarchar`], ['RowsAffected', failed ? '0' : '1'],
    ['Result', failed ? 'PGRES_FATAL_ERROR' : 'PGRES_COMMAND_OK'], ['Context', b.context]], startUs);
}
