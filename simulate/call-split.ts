// Where a simulated server call's wall time went, decided from the events the simulator wrote inside it, and the
// CALL line's `callWait` and `CpuTime` chosen so that they agree with those events (docs/tj-format.md §4.3): the
// thread first waits `callWait` µs for a worker, then runs; DB statements and managed-lock waits take their own
// durations; the CPU time fits in what is left, so the parts never add up to more than the call.
import type { Prng } from './prng.js';
import type { TjProperty } from './tj-writer.js';

/** What the split reads of a simulated event (tj-scenarios.ts `SimEvent`). */
interface InnerEvent { name: string; duration_us: number; props: readonly TjProperty[] }

/** The split of one call in µs; `other_us` is what no part claims. */
export interface CallSplit {
  db_us: number;
  lock_wait_us: number;
  cpu_us: number;
  thread_wait_us: number;
  other_us: number;
}

/** The DBMS events 1C writes, one per database platform (docs/tj-format.md §4). */
export const DB_EVENTS: ReadonlySet<string> = new Set(['DBPOSTGRS', 'DBMSSQL', 'DBORACLE', 'DB2', 'DBV8DBEng']);

const prop = (ev: InnerEvent, name: string): string | undefined => ev.props.find((p) => p[0] === name)?.[1];

/** A TLOCK that waited names the connections it waited for (§5.1); a granted one leaves `WaitConnections` empty. */
export const waitedTlock = (ev: InnerEvent): boolean => ev.name === 'TLOCK' && (prop(ev, 'WaitConnections') ?? '') !== '';

/** How long a call waits for a worker thread: mostly not at all; under load a few ms, sometimes a tenth of a second. */
export function drawCallWait(rng: Prng): number {
  return rng.chance(0.15) ? rng.int(200, 150_000) : 0;
}

/** The split of a call of `wallUs` around `inner` events, with `cpuShare` of the unclaimed time spent on CPU. */
export function splitCall(inner: readonly InnerEvent[], wallUs: number, callWaitUs: number, cpuShare: number): CallSplit {
  let db = 0;
  let lock = 0;
  for (const ev of inner) {
    if (DB_EVENTS.has(ev.name)) db += ev.duration_us;
    else if (waitedTlock(ev)) lock += ev.duration_us;
  }
  const free = wallUs - callWaitUs - db - lock;
  if (free < 0) throw new RangeError(`a simulated call of ${wallUs} µs holds ${db + lock + callWaitUs} µs of waits: its events overlap`);
  const cpu = Math.floor(free * cpuShare);
  return { db_us: db, lock_wait_us: lock, cpu_us: cpu, thread_wait_us: callWaitUs, other_us: free - cpu };
}

/**
 * The CALL's identity with `callWait` where real rphost lines put it, after `t:connectID` (docs/tj-format.md §4.2),
 * and its `CpuTime`: what follows the caller's own properties.
 */
export function callIdentity(identity: readonly TjProperty[], split: CallSplit): TjProperty[] {
  const out: TjProperty[] = [];
  for (const p of identity) {
    out.push(p);
    if (p[0] === 't:connectID') out.push(['callWait', String(split.thread_wait_us)]);
  }
  return out;
}
