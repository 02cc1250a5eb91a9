// Seeded, deterministic TJ stream of a 1C-on-PostgreSQL load test, and a writer of the whole TJ directory tree
// `<out>/rphost_<pid>/<yymmddhh>.log` that returns the ground truth (counts per event type, bytes) for tests and benches.
//
// How the stream is made: every session alternates think time and one operation (tj-scenarios.ts); an operation's
// events are built at once with absolute end times, in end order. Sessions are merged through a min-heap on the
// next end time, so the stream is in time order across processes, as the platform writes each event when it ends.
// Then, per process, an event is swapped with the one before it at a small rate (same hour file only), because real
// files are not strictly in time order (docs/tj-format.md §2 "Timestamp").
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createPrng, type Prng } from './prng.js';
import { heapify, siftDown } from './min-heap.js';
import { createSessions, type SimProcess, type SimSession } from './tj-session.js';
import { buildOperation, DEFAULT_RATES, type ScenarioRates, type SimEvent } from './tj-scenarios.js';
import { createLocalClock, tjProcessFolder, type LocalClock } from './tj-layout.js';
import { formatTjEvent, UTF8_BOM, type TjWriteOptions } from './tj-writer.js';
import { INFOBASES } from './tj-vocabulary.js';

export interface TjGeneratorOptions {
  seed: number;
  /** First instant of the simulated span (UTC). */
  start: Date;
  /** Length of the span; events ending later are not produced. */
  durationMs: number;
  /** rphost processes (folders). Default 2. */
  processes?: number;
  /** Connections served by each process. Default 10. */
  sessionsPerProcess?: number;
  /** IANA zone of the 1C server's clock (file names, headers). Default Europe/Moscow. */
  timeZone?: string;
  /** Mean user think time between operations, ms. Default 2000. */
  thinkMs?: number;
  /** Share of events written before their predecessor. Default 0.003. */
  outOfOrderRate?: number;
  rates?: Partial<ScenarioRates>;
}

export interface TjSimRecord {
  /** End of the event in µs since `start` (not monotone: see the out-of-order swaps). */
  at_us: number;
  process: SimProcess;
  /** Local wall clock of the end: `hour` names the file, the rest goes into the header. */
  clock: LocalClock;
  event: SimEvent;
}

interface Lane { session: SimSession; queue: SimEvent[]; pos: number }

const headEnd = (lane: Lane): number => (lane.queue[lane.pos] as SimEvent).end_us;
const before = (a: Lane, b: Lane): boolean => headEnd(a) < headEnd(b) || (headEnd(a) === headEnd(b) && a.session.index < b.session.index);

/** A CONN line of the process's ping machinery: not tied to a user call (§4 `CONN`). */
function connEvent(rng: Prng, s: SimSession, endUs: number): SimEvent {
  const closed = rng.chance(0.2);
  const duration = closed ? rng.int(1_000_000, 300_000_000) : 0;
  const txt = closed ? 'Outgoing connection closed'
    : `Ping direction statistics: address=[fe80::4833:ae64:eeb:a885%2]:1541,pingTimeout=5000,pingPeriod=1000,period=${rng.int(10000, 10400)},packetsSent=10,avgResponseTime=${rng.int(0, 3)},maxResponseTime=${rng.int(0, 9)},packetsTimedOut=0,packetsLost=0`;
  return { end_us: endUs, duration_us: duration, name: 'CONN', depth: closed ? 0 : 1,
    props: [['process', s.process.name], ['OSThread', String(rng.int(1000, 60000))], ...(closed ? [['ClientID', String(s.clientId)] as const] : []), ['Txt', txt]] };
}

/** The record stream in file order per process; stop early by leaving the loop. */
export function* tjRecords(options: TjGeneratorOptions): Generator<TjSimRecord> {
  const rng = createPrng(options.seed);
  const rates = { ...DEFAULT_RATES, ...options.rates };
  const thinkUs = (options.thinkMs ?? 2000) * 1000;
  const startUs = options.start.getTime() * 1000;
  const endUs = startUs + options.durationMs * 1000;
  const clock = createLocalClock(options.timeZone ?? 'Europe/Moscow');
  const swapRate = options.outOfOrderRate ?? 0.003;
  const processes: SimProcess[] = [];
  for (let i = 0; i < (options.processes ?? 2); i++) processes.push({ name: 'rphost', pid: 1000 + i * 4000 + rng.int(1, 3999) });
  const sessions = createSessions(rng, { processes, sessionsPerProcess: options.sessionsPerProcess ?? 10, infobases: INFOBASES });

  const refill = (lane: Lane, after: number): void => {
    const opStart = after + Math.round(rng.exp(thinkUs)) + 1;
    const events = buildOperation(rng, lane.session, opStart, rates);
    if (rng.chance(0.03)) events.unshift(connEvent(rng, lane.session, opStart));
    lane.queue = events;
    lane.pos = 0;
  };
  const heap: Lane[] = sessions.map((session) => {
    const lane: Lane = { session, queue: [], pos: 0 };
    refill(lane, startUs);
    return lane;
  });
  heapify(heap, before);

  const held = new Map<number, TjSimRecord>();
  while (heap.length > 0 && headEnd(heap[0] as Lane) < endUs) {
    const lane = heap[0] as Lane;
    const event = lane.queue[lane.pos++] as SimEvent;
    if (lane.pos === lane.queue.length) refill(lane, event.end_us);
    siftDown(heap, 0, before);
    const record: TjSimRecord = { at_us: event.end_us - startUs, process: lane.session.process, clock: clock(event.end_us), event };
    const pid = record.process.pid;
    const previous = held.get(pid);
    if (previous === undefined) {
      held.set(pid, record);
    } else if (previous.clock.hour === record.clock.hour && rng.chance(swapRate)) {
      held.delete(pid);
      yield record;
      yield previous;
    } else {
      held.set(pid, record);
      yield previous;
    }
  }
  for (const record of held.values()) yield record;
}

/** The same stream for `for await` consumers; yields to the event loop every 1000 records. */
export async function* tjRecordsAsync(options: TjGeneratorOptions): AsyncGenerator<TjSimRecord> {
  let n = 0;
  for (const record of tjRecords(options)) {
    if (++n % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    yield record;
  }
}

/** Callback form; return `false` from `onRecord` to stop. */
export function forEachTjRecord(options: TjGeneratorOptions, onRecord: (record: TjSimRecord) => boolean | void): void {
  for (const record of tjRecords(options)) if (onRecord(record) === false) return;
}

export interface TjTreeOptions extends TjGeneratorOptions, TjWriteOptions {
  /** Stop after the event that brings the total to at least this many bytes. */
  maxBytes?: number;
  /** Start each file with a BOM. Default true. */
  bom?: boolean;
}

export interface TjTreeFile { path: string; events: number; bytes: number; counts: Record<string, number> }

export interface TjTreeResult {
  files: TjTreeFile[];
  /** Ground truth: events written per event name. */
  counts: Record<string, number>;
  events: number;
  bytes: number;
}

const FLUSH_CHARS = 1 << 20;

/** Writes `<out>/rphost_<pid>/<yymmddhh>.log` files; an event goes to the file of its end hour (§1). */
export function writeTjTree(out: string, options: TjTreeOptions): TjTreeResult {
  const counts: Record<string, number> = {};
  const files = new Map<string, TjTreeFile>();
  const open = new Map<number, { file: TjTreeFile; fd: number; text: string }>();
  let bytes = 0;
  let events = 0;
  const flush = (current: { fd: number; text: string }): void => {
    if (current.text.length === 0) return;
    writeSync(current.fd, current.text, null, 'utf8');
    current.text = '';
  };
  for (const record of tjRecords(options)) {
    const folder = join(out, tjProcessFolder(record.process.name, record.process.pid));
    const path = join(folder, `${record.clock.hour}.log`);
    let current = open.get(record.process.pid);
    if (current?.file.path !== path) {
      if (current !== undefined) {
        flush(current);
        closeSync(current.fd);
      }
      // A repeated local hour (DST fall-back) reopens its file for append, as the platform would.
      let file = files.get(path);
      const fresh = file === undefined;
      if (file === undefined) {
        file = { path, events: 0, bytes: 0, counts: {} };
        files.set(path, file);
        mkdirSync(folder, { recursive: true });
      }
      current = { file, fd: openSync(path, fresh ? 'w' : 'a'), text: '' };
      if (fresh && (options.bom ?? true)) {
        current.text = UTF8_BOM;
        file.bytes += 3;
        bytes += 3;
      }
      open.set(record.process.pid, current);
    }
    const { clock, event } = record;
    const text = formatTjEvent({ ...clock, duration_us: event.duration_us, name: event.name, depth: event.depth, props: event.props }, options);
    const size = Buffer.byteLength(text, 'utf8');
    current.text += text;
    current.file.events++;
    current.file.bytes += size;
    current.file.counts[event.name] = (current.file.counts[event.name] ?? 0) + 1;
    counts[event.name] = (counts[event.name] ?? 0) + 1;
    events++;
    bytes += size;
    if (current.text.length >= FLUSH_CHARS) flush(current);
    if (options.maxBytes !== undefined && bytes >= options.maxBytes) break;
  }
  for (const current of open.values()) {
    flush(current);
    closeSync(current.fd);
  }
  return { files: [...files.values()], counts, events, bytes };
}
