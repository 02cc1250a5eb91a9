// Where each server call's wall time went, decided as the events of one rphost process arrive in file order
// (docs/tj-format.md §4.3, "inside the call"). Pure: facts in, closed splits out; no clock, no I/O.
//
// A thread writes an event when it ends, so the DB statements and lock waits of a call are written before the CALL
// line that closes it. The accountant keeps, per OSThread, the DB and waited-lock events seen since that thread's
// last CALL (and, for events without OSThread, per t:connectID); when a CALL arrives it takes from its thread's
// account every event that ended within [end − duration, end], adds the CALL's own CpuTime and callWait, and closes
// the split. Events of the account that ended before the call began belong to no logged call (a CALL below the
// logcfg duration threshold, or none) and are counted as left out. An event in the account that ended *after* its
// CALL can only come from a clock stepped back between the two lines: it is counted by file order, and the call
// is flagged. Parts never add up to more than the call (see `closeSplit` for the order in which they are capped).

/** The facts of one TJ event the accountant needs (call-facts.ts reads them from a parsed event). */
export interface CallFact {
  /** `call` closes a split; `db` and `lock_wait` are parts of one; `other` events only count as seen. */
  kind: 'call' | 'db' | 'lock_wait' | 'other';
  /** End of the event, epoch µs (the written time). */
  end_us: number;
  duration_us: number;
  /** `OSThread`, or null when the line has none. */
  thread: string | null;
  /** `t:connectID`, or null when the line has none. */
  connect: string | null;
  /** CALL only: `CpuTime` and `callWait`, µs; null when the line has none. */
  cpu_us: number | null;
  call_wait_us: number | null;
  /** DB events: the statement's key (its `sql_hash`), grouping the call's statements. */
  statement: string | null;
  /** DB events: the PostgreSQL backend (`dbpid`) that ran the statement, or null. */
  dbpid: number | null;
  /** Where the event is in the stream (a byte offset): the earliest held one is where a replay must start. */
  position: number;
}

export interface CallStatement { key: string; count: number; us: number }

/** Why a split is not simply what its events give: each is a line in the report, never a silent guess. */
export interface CallFlags {
  /** The CALL had no duration: nothing could be placed inside it; its account was dropped. */
  no_duration: boolean;
  /** An event of the account ended after its CALL: the clock stepped back; counted by file order. */
  clock_step: boolean;
  /** The parts as measured added up to more than the call; capped (see closeSplit). */
  parts_exceed: boolean;
  /** The CALL had no CpuTime (an older platform): cpu_us is 0. */
  no_cpu_time: boolean;
  /**
   * The call began before the first event this accountant saw, and the accountant was opened in the middle of a
   * journal (reading resumed after a restart): its nested events before that point are not in it, their time is in
   * `other_us`. Only set on an accountant created with `resumed` (docs/tj-format.md §4.3).
   */
  partial: boolean;
}

export interface ClosedSplit {
  end_us: number;
  duration_us: number;
  thread: string | null;
  connect: string | null;
  position: number;
  db_us: number;
  lock_wait_us: number;
  cpu_us: number;
  thread_wait_us: number;
  other_us: number;
  db_count: number;
  lock_wait_count: number;
  statements: CallStatement[];
  /** The distinct `dbpid`s of the call's DB events, in the order first seen. */
  dbpids: number[];
  flags: CallFlags;
}

/** Counts of what was seen and not placed in any call, for the "nothing guesses in silence" lines. */
export interface AccountStats {
  /** DB and lock-wait events that ended before the next CALL of their thread began (no logged call held them). */
  left_out: number;
  /** DB and lock-wait events with neither OSThread nor t:connectID: no call can be found for them. */
  unkeyed: number;
  /** Events dropped because one account grew past its bound (a thread without CALLs for very long). */
  overflow: number;
}

export interface ThreadAccounts {
  /** Feeds one event in file order; returns the split a CALL closes, or null. */
  push(fact: CallFact): ClosedSplit | null;
  /** The smallest position still held in an account, or null when none is held: where a replay must start. */
  heldFrom(): number | null;
  /** Events held in accounts, waiting for their CALL. */
  held(): number;
  stats(): AccountStats;
}

interface Entry {
  kind: 'db' | 'lock_wait';
  end_us: number;
  duration_us: number;
  statement: string | null;
  dbpid: number | null;
  hasThread: boolean;
  position: number;
  taken: boolean;
}

/** Events one account keeps at most; a thread running millions of statements without a CALL line drops its oldest. */
export const ACCOUNT_LIMIT = 1_000_000;

export interface ThreadAccountsOptions {
  /** Events one account keeps at most. */
  limit?: number;
  /** The accountant starts in the middle of a journal (after a restart): flag calls that began before its first event. */
  resumed?: boolean;
}

export function createThreadAccounts(options: ThreadAccountsOptions = {}): ThreadAccounts {
  const limit = options.limit ?? ACCOUNT_LIMIT;
  // The end of the first event seen; calls that began before it are partial when the accountant resumed mid-journal.
  let since: number | null = null;
  const byThread = new Map<string, Entry[]>();
  const byConnect = new Map<string, Entry[]>();
  const stats: AccountStats = { left_out: 0, unkeyed: 0, overflow: 0 };
  const holding = { n: 0 };

  const keep = (map: Map<string, Entry[]>, key: string, e: Entry): void => {
    let list = map.get(key);
    if (list === undefined) map.set(key, (list = []));
    list.push(e);
    if (list.length > limit) {
      const dropped = list.shift() as Entry;
      if (!dropped.taken) {
        dropped.taken = true;
        holding.n--;
        stats.overflow++;
      }
    }
  };

  return {
    push(f) {
      if (since === null) since = f.end_us;
      if (f.kind === 'other') return null;
      if (f.kind !== 'call') {
        if (f.thread === null && f.connect === null) {
          stats.unkeyed++;
          return null;
        }
        const e: Entry = { kind: f.kind, end_us: f.end_us, duration_us: f.duration_us, statement: f.statement, dbpid: f.dbpid, hasThread: f.thread !== null, position: f.position, taken: false };
        holding.n++;
        if (f.thread !== null) keep(byThread, f.thread, e);
        if (f.connect !== null) keep(byConnect, f.connect, e);
        return null;
      }
      // A CALL: its thread's account, and the events of its connection written without a thread. A CALL without
      // a thread takes every event of its connection.
      const candidates: Entry[] = [];
      if (f.thread !== null) {
        candidates.push(...(byThread.get(f.thread) ?? []));
        byThread.delete(f.thread);
      }
      if (f.connect !== null) {
        for (const e of byConnect.get(f.connect) ?? []) if (f.thread === null || !e.hasThread) candidates.push(e);
        byConnect.delete(f.connect);
      }
      const split = closeSplit(f, candidates, stats, holding);
      split.flags.partial = options.resumed === true && since !== null && f.end_us - f.duration_us < since;
      return split;
    },
    heldFrom() {
      let min: number | null = null;
      for (const map of [byThread, byConnect]) {
        for (const list of map.values()) for (const e of list) if (!e.taken && (min === null || e.position < min)) min = e.position;
      }
      return min;
    },
    held: () => holding.n,
    stats: () => ({ ...stats }),
  };
}

/**
 * Places the candidates in the call and closes its split. Parts are capped in this order so that they never add up
 * to more than the call and `other_us` is never negative: DB time and lock waits (measured by their own events,
 * which cannot overlap on one thread) first, then callWait, then CpuTime; `other_us` is what remains.
 */
function closeSplit(call: CallFact, candidates: readonly Entry[], stats: AccountStats, holding: { n: number }): ClosedSplit {
  const start = call.end_us - call.duration_us;
  const flags: CallFlags = { no_duration: call.duration_us === 0, clock_step: false, parts_exceed: false, no_cpu_time: call.cpu_us === null, partial: false };
  let db = 0;
  let lock = 0;
  let dbCount = 0;
  let lockCount = 0;
  const statements = new Map<string, CallStatement>();
  const dbpids = new Set<number>();
  for (const e of candidates) {
    if (e.taken) continue;
    e.taken = true;
    holding.n--;
    if (flags.no_duration || e.end_us < start) {
      stats.left_out++;
      continue;
    }
    if (e.end_us > call.end_us) flags.clock_step = true;
    if (e.kind === 'db') {
      db += e.duration_us;
      dbCount++;
      if (e.dbpid !== null) dbpids.add(e.dbpid);
      if (e.statement !== null) {
        const s = statements.get(e.statement) ?? { key: e.statement, count: 0, us: 0 };
        s.count++;
        s.us += e.duration_us;
        statements.set(e.statement, s);
      }
    } else {
      lock += e.duration_us;
      lockCount++;
    }
  }
  const wall = call.duration_us;
  const measured = db + lock + (call.call_wait_us ?? 0) + (call.cpu_us ?? 0);
  flags.parts_exceed = measured > wall;
  let left = wall;
  // A negative CpuTime or callWait (a damaged line) counts as 0: a part is never negative either.
  const cap = (v: number): number => {
    const x = Math.min(Math.max(v, 0), left);
    left -= x;
    return x;
  };
  const dbUs = cap(db);
  const lockUs = cap(lock);
  const waitUs = cap(call.call_wait_us ?? 0);
  const cpuUs = cap(call.cpu_us ?? 0);
  return {
    end_us: call.end_us, duration_us: wall, thread: call.thread, connect: call.connect, position: call.position,
    db_us: dbUs, lock_wait_us: lockUs, cpu_us: cpuUs, thread_wait_us: waitUs, other_us: left,
    db_count: dbCount, lock_wait_count: lockCount,
    statements: [...statements.values()].sort((a, b) => b.us - a.us || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    dbpids: [...dbpids],
    flags,
  };
}
