// The accountant against a model: random rphost timelines (threads serving calls of several connections one after
// another, calls below the logging threshold that leave no CALL line, events written without OSThread, CALLs without
// one) merged into file order. Every logged call's split must be what its timeline says, to the µs, and every DB or
// lock-wait event must be exactly one of placed, left out, held or unkeyed. With the clock stepped back or forward
// between two lines, parts still add up to each call and never go negative, and calls on one side of the step keep
// their exact split.
import test from 'ava';
import fc from 'fast-check';
import { createThreadAccounts, type CallFact, type ClosedSplit } from './thread-accounts.js';

/** The value type of an arbitrary. */
type Of<A> = A extends fc.Arbitrary<infer T> ? T : never;

interface ModelCall { thread: string; connect: string; start: number; end: number; logged: boolean; callThread: boolean; truth: number[] }

const nestedArb = fc.record({
  kind: fc.constantFrom('db' as const, 'lock_wait' as const, 'other' as const),
  duration: fc.integer({ min: 0, max: 5_000 }),
  gap: fc.integer({ min: 0, max: 300 }),
  threadless: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
});
const callArb = fc.record({
  gapBefore: fc.integer({ min: 1, max: 20_000 }),
  callWait: fc.integer({ min: 0, max: 2_000 }),
  nested: fc.array(nestedArb, { maxLength: 6 }),
  tail: fc.integer({ min: 0, max: 1_000 }),
  cpuShare: fc.double({ min: 0, max: 1, noNaN: true }),
  logged: fc.integer({ min: 0, max: 3 }).map((x) => x !== 0),
  callThread: fc.boolean(),
  connectPick: fc.integer({ min: 0, max: 5 }),
});
const timelineArb = fc.array(fc.array(callArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 });

/** The facts of a timeline in file order (stable by end time, thread order for ties), and its calls' truth. */
function build(threads: Of<typeof timelineArb>, allLogged = false): { facts: CallFact[]; calls: ModelCall[] } {
  const calls: ModelCall[] = [];
  const connectFree = new Map<string, number>();
  let nextConnect = 100;
  const planned: { thread: number; at: number; c: Of<typeof callArb> }[] = [];
  threads.forEach((list, ti) => {
    let cursor = 1_000_000;
    for (const c of list) {
      cursor += c.gapBefore;
      planned.push({ thread: ti, at: cursor, c });
      cursor += c.callWait + c.nested.reduce((a, n) => a + n.duration + n.gap, 0) + c.tail + 1;
    }
  });
  planned.sort((a, b) => a.at - b.at);
  const facts = threads.map((): CallFact[] => []);
  for (const { thread, at, c } of planned) {
    const t = `T${thread}`;
    // A connection runs one call at a time: take a pooled one that is free, or a new one.
    const pooled = `C${c.connectPick}`;
    const wall = c.callWait + c.nested.reduce((a, n) => a + n.duration + n.gap, 0) + c.tail + 1;
    const connect = (connectFree.get(pooled) ?? 0) < at ? pooled : `C${nextConnect++}`;
    connectFree.set(connect, at + wall);
    let cursor = at + c.callWait;
    let db = 0;
    let lock = 0;
    for (const n of c.nested) {
      cursor += n.gap;
      const end = cursor + n.duration;
      facts[thread]?.push({ kind: n.kind, end_us: end, duration_us: n.duration, thread: n.threadless ? null : t, connect, cpu_us: null, call_wait_us: null, statement: null, dbpid: null, position: 0 });
      if (n.kind === 'db') db += n.duration;
      if (n.kind === 'lock_wait') lock += n.duration;
      cursor = end;
    }
    const free = wall - c.callWait - db - lock;
    const cpu = Math.floor(free * c.cpuShare);
    const logged = c.logged || allLogged;
    if (logged) facts[thread]?.push({ kind: 'call', end_us: at + wall, duration_us: wall, thread: c.callThread ? t : null, connect, cpu_us: cpu, call_wait_us: c.callWait, statement: null, dbpid: null, position: 0 });
    calls.push({ thread: t, connect, start: at, end: at + wall, logged, callThread: c.callThread, truth: [db, lock, cpu, c.callWait, free - cpu] });
  }
  const merged = facts.flat().map((f, i) => ({ f, i })).sort((a, b) => a.f.end_us - b.f.end_us || a.i - b.i).map((x, position) => ({ ...x.f, position }));
  return { facts: merged, calls };
}

const parts = (s: ClosedSplit): number[] => [s.db_us, s.lock_wait_us, s.cpu_us, s.thread_wait_us, s.other_us];
const countable = (facts: readonly CallFact[]): number => facts.filter((f) => f.kind === 'db' || f.kind === 'lock_wait').length;

test('every logged call gets exactly its own DB time, lock waits, CPU, callWait and the rest; every event is accounted once', (t) => {
  fc.assert(fc.property(timelineArb, (threads) => {
    const { facts, calls } = build(threads);
    const a = createThreadAccounts();
    const closed: ClosedSplit[] = [];
    for (const f of facts) {
      const s = a.push(f);
      if (s !== null) closed.push(s);
    }
    const logged = calls.filter((c) => c.logged).sort((x, y) => x.end - y.end);
    if (closed.length !== logged.length) return false;
    const byKey = new Map(logged.map((c) => [`${c.end}|${c.connect}`, c]));
    for (const s of closed) {
      const c = byKey.get(`${s.end_us}|${s.connect}`);
      if (c === undefined) return false;
      // A thread-less CALL takes its connection's events; its thread's own account is not its to close.
      t.deepEqual(parts(s), c.truth, `call ${c.connect} on ${c.thread} ending ${c.end}`);
      if (s.flags.clock_step || s.flags.parts_exceed || s.flags.no_duration) return false;
    }
    const st = a.stats();
    const placed = closed.reduce((n, s) => n + s.db_count + s.lock_wait_count, 0);
    return placed + st.left_out + st.unkeyed + st.overflow + a.held() === countable(facts);
  }), { numRuns: 400 });
  t.pass();
});

test('a clock step between two lines keeps every split whole and non-negative, and calls clear of it exact', (t) => {
  fc.assert(fc.property(timelineArb, fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: -3_000_000, max: 3_000_000 }), (threads, allLogged, where, step) => {
    const { facts, calls } = build(threads, allLogged);
    const cut = Math.floor(facts.length * where);
    const stepAt = facts[cut]?.end_us ?? Infinity;
    const shifted = facts.map((f, i) => (i >= cut ? { ...f, end_us: f.end_us + step } : f));
    const a = createThreadAccounts();
    for (const f of shifted) {
      const s = a.push(f);
      if (s === null) continue;
      if (parts(s).some((p) => p < 0) || parts(s).reduce((x, y) => x + y, 0) !== s.duration_us) return false;
      const original = s.end_us - (s.position >= cut ? step : 0);
      const c = calls.find((x) => x.logged && x.end === original && x.connect === s.connect);
      if (c === undefined) return false;
      // Before the step nothing changed. After it, a call is exact when no call below the logging threshold left
      // events that the stepped-back clock could place inside it (with such calls, the step is ambiguous).
      if (c.end < stepAt || (allLogged && c.start > stepAt)) t.deepEqual(parts(s), c.truth);
    }
    const st = a.stats();
    return st.left_out + st.unkeyed + st.overflow + a.held() <= countable(facts);
  }), { numRuns: 300 });
  t.pass();
});
