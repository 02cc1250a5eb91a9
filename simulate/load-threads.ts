// The worker threads of each simulated rphost (`OSThread`, docs/tj-format.md §4.3): the server runs each call on a
// thread of its pool that is free when the call starts, so one thread serves many sessions one after another and
// calls of one process overlap on different threads. Every event of a call carries its thread. One process writes
// no `OSThread` at all and a few events elsewhere lack it: the cases where a call is found by `t:connectID` instead.
import type { Prng } from './prng.js';
import type { SimEvent } from './tj-scenarios.js';
import type { SimSession } from './tj-session.js';

export interface ThreadPlacement {
  /** The op's events with the `OSThread` of the thread it ran on (or none); ops must come in the order generated. */
  place(s: SimSession, events: readonly SimEvent[]): SimEvent[];
}

/** Share of events (not CALL) written without `OSThread` on processes that otherwise write it. */
const THREADLESS_SHARE = 0.03;

export function createThreadPlacement(rng: Prng, threadless: ReadonlySet<number>): ThreadPlacement {
  const pools = new Map<number, { id: number; busyUntil: number }[]>();
  const used = new Set<number>();
  const newThread = (): number => {
    let id = rng.int(1000, 60000);
    while (used.has(id)) id = rng.int(1000, 60000);
    used.add(id);
    return id;
  };
  return {
    place(s, events) {
      const last = events[events.length - 1];
      if (last === undefined) return [];
      const start = Math.min(...events.map((e) => e.end_us - e.duration_us));
      let pool = pools.get(s.process.pid);
      if (pool === undefined) pools.set(s.process.pid, (pool = []));
      // A thread is free once its last call ended before this one starts; a busier moment adds a thread to the pool.
      let thread = pool.find((t) => t.busyUntil < start);
      if (thread === undefined) pool.push((thread = { id: newThread(), busyUntil: 0 }));
      thread.busyUntil = last.end_us;
      const osThread = String(thread.id);
      const none = threadless.has(s.process.pid);
      return events.map((ev) => {
        const drop = none || (ev.name !== 'CALL' && rng.chance(THREADLESS_SHARE));
        const props = drop ? ev.props.filter((p) => p[0] !== 'OSThread') : ev.props.map((p) => (p[0] === 'OSThread' ? ['OSThread', osThread] as const : p));
        return { ...ev, props };
      });
    },
  };
}
