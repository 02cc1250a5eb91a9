// Writes everything a 1C load test on PostgreSQL leaves on disk, consistent across files, plus expected.json:
//   tj/<process>_<pid>/<yymmddhh>.log   the technological journal of every rphost (tj-writer.ts, tj-layout.ts)
//   tj/timezone.txt                       the zone of the journal's local times, for ingest (parsers/tj/zone-file.ts)
//   pg/postgresql-<date>_<time>.log      the PostgreSQL stderr log: slow statements and lock waits (pg-log-writer.ts)
//   atop/atop.txt                         `atop -P` samples of the database host (atop-writer.ts)
//   apdex/export.xml                      the performance-evaluation export of the key operations (apdex-export.ts)
// Sessions' events are merged through a min-heap on their end times, so every file is written in time order, as
// the servers write each record when it happens; with `realtime` each record waits for its moment on the clock.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createPrng } from './prng.js';
import { heapify, siftDown } from './min-heap.js';
import type { SimEvent } from './tj-scenarios.js';
import type { SimSession } from './tj-session.js';
import { createLocalClock, tjProcessFolder } from './tj-layout.js';
import { formatTjEvent, UTF8_BOM } from './tj-writer.js';
import { OPERATIONS } from './tj-vocabulary.js';
import { planLoad, sessionEvents } from './load-plan.js';
import { createFileAppender } from './load-files.js';
import { createPgLogWriter, DEBIAN_PREFIX, type PgLogEntry } from './pg-log-writer.js';
import { formatAtopSample, type AtopProcess } from './atop-writer.js';
import { encodeExport, writeApdexExport, type SimKeyOperation } from './apdex-export.js';
import { contextFirst, countApdex, apdexOf, type Expected } from './load-expected.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { createThreadPlacement } from './load-threads.js';
import { createWhyTally } from './load-why.js';
import { planRuns, POSTMASTER_PID } from './load-runs.js';
import { DOMINANT } from './tj-sql.js';
import { EXTENSION_OIDS } from './load-conflicts.js';
import { systemTimeZone, TJ_ZONE_FILE, zoneFileText } from '../parsers/tj/zone-file.js';

export interface LoadTestOptions {
  out: string;
  users: number;
  durationMs: number;
  /** Target TJ events per second over all users. */
  rate: number;
  seed: number;
  /** Write each record when its time comes (start = now) instead of all at once. */
  realtime?: boolean;
  /** First instant (default 2026-11-30 09:00 UTC; now with `realtime`). */
  start?: Date;
  /** IANA zone of the 1C server's clock. Default this machine's, the one ingest assumes for a TJ without a zone file. */
  timeZone?: string;
  /** The PostgreSQL server's `log_line_prefix`. Default Debian's `%m [%p] %q%u@%d `. */
  pgPrefix?: string;
  /** `log_min_duration_statement`, ms: statements at least this long are logged. Default 100. */
  logMinDurationMs?: number;
  /** atop sampling interval, s. Default 10. */
  atopIntervalS?: number;
  /** Lock conflicts per minute of run. Default 4. */
  conflictsPerMinute?: number;
  /** Called after each flush in realtime mode, with the events written so far. */
  onProgress?: (events: number) => void;
  signal?: AbortSignal;
}

/**
 * T per key operation, whole 10 ms as SSL stores it: tight enough that a run shows S, T and F. Month closing (the
 * second) runs the planted 200–600 ms statement (tj-sql.ts DOMINANT) every time.
 */
const TARGETS_S = [0.1, 0.3, 0.2, 0.03];
/** The platform version the rphost start lines name (PROC, docs/tj-format.md §4). */
export const PLATFORM_VERSION = '8.3.25.1374';
export const DEFAULT_START = new Date('2026-11-30T09:00:00Z');

interface Lane { session: SimSession; events: Generator<SimEvent>; head: SimEvent }

const before = (a: Lane, b: Lane): boolean => a.head.end_us < b.head.end_us || (a.head.end_us === b.head.end_us && a.session.index < b.session.index);

const pad = (n: number): string => String(n).padStart(2, '0');
const prop = (ev: SimEvent, name: string): string | undefined => ev.props.find((p) => p[0] === name)?.[1];

function pgFileName(start: Date): string {
  const d = start;
  return `postgresql-${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}_${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}.log`;
}

export async function writeLoadTest(o: LoadTestOptions): Promise<Expected> {
  const start = o.start ?? (o.realtime ? new Date() : DEFAULT_START);
  const startUs = start.getTime() * 1000;
  const endUs = startUs + o.durationMs * 1000;
  const tz = o.timeZone ?? systemTimeZone();
  const plan = planLoad({ seed: o.seed, users: o.users, startUs, endUs, rate: o.rate, conflictsPerMinute: o.conflictsPerMinute ?? 4 });
  const clock = createLocalClock(tz);
  const tjDir = join(o.out, 'tj');
  mkdirSync(tjDir, { recursive: true });
  writeFileSync(join(tjDir, TJ_ZONE_FILE), zoneFileText(tz));
  const files = createFileAppender((path) => (path.startsWith(`${tjDir}/`) ? UTF8_BOM : ''));
  const pgWriter = createPgLogWriter(o.pgPrefix ?? DEBIAN_PREFIX);
  const pgPath = join(o.out, 'pg', pgFileName(start));
  const atopPath = join(o.out, 'atop', 'atop.txt');
  const slowUs = (o.logMinDurationMs ?? 100) * 1000;
  const atopRng = createPrng(o.seed ^ 0xa70b);
  const intervalS = o.atopIntervalS ?? 10;

  let pgNext = 0;
  let pgEntries = 0;
  let pgLines = 0;
  const writePg = (e: PgLogEntry): void => {
    const text = pgWriter.format(e);
    files.append(pgPath, text);
    pgEntries++;
    pgLines += e.lines.length;
  };
  // The postmaster's line opens the log; it stops at %q (docs/pg-format.md §3).
  writePg({ at_us: startUs - 60_000_000, pid: POSTMASTER_PID, session: false, lines: [{ label: 'LOG', text: 'database system is ready to accept connections' }] });

  // atop: the since-boot sample at the start, then one per interval with the activity of that interval.
  let atopSamples = 0;
  let nextSampleS = Math.ceil(startUs / 1e6);
  let dbEvents = 0;
  const perBackend = new Map<number, number>();
  const sample = (epoch: number): void => {
    const sinceBoot = atopSamples === 0;
    const interval = sinceBoot ? 86_400 + 3_721 : intervalS;
    const processes: AtopProcess[] = [{ pid: 812, name: 'postgres', cmdline: '/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main', busy: 0.01 }];
    for (const s of plan.sessions) {
      processes.push({ pid: s.dbpid, name: 'postgres', cmdline: `postgres: 15/main: usr1cv8 ${s.infobase} 10.0.0.21 idle`,
        busy: sinceBoot ? 0.02 : Math.min(0.95, (perBackend.get(s.dbpid) ?? 0) / (intervalS * 400)) });
    }
    const busy = sinceBoot ? 0.12 : Math.min(0.95, 0.03 + dbEvents / (intervalS * 4000));
    files.append(atopPath, formatAtopSample(atopRng, { epoch, interval, sinceBoot, busy, writeSectors: Math.round(dbEvents * 24 + 800 * interval), processes }));
    atopSamples++;
    dbEvents = 0;
    perBackend.clear();
  };

  // APDEX: every CALL is one measurement of its key operation (the first line of its context), run time in ms.
  const ops = new Map<string, SimKeyOperation>();
  const targetOf = (name: string): number => TARGETS_S[Math.max(0, OPERATIONS.findIndex((op) => op.call === name)) % TARGETS_S.length] as number;

  const counts: Record<string, number> = {};
  let events = 0;
  const advanceTo = (us: number): void => {
    while (pgNext < pgPlan.length && (pgPlan[pgNext] as PgLogEntry).at_us <= us) writePg(pgPlan[pgNext++] as PgLogEntry);
    while (nextSampleS * 1e6 <= us) {
      sample(nextSampleS);
      nextSampleS += intervalS;
    }
  };

  // The named runs and the settings reloaded around them go into the log with the conflicts' lines, in time order.
  const runs = planRuns(startUs, endUs);
  const pgPlan = [...plan.pg, ...runs.pg].sort((x, y) => x.at_us - y.at_us);
  // Each rphost writes its start line with the platform version first (what the TJ shows of 1C, PROC in §4).
  for (const p of plan.processes) {
    const local = clock(startUs);
    files.append(join(tjDir, tjProcessFolder(p.name, p.pid), `${local.hour}.log`), formatTjEvent({ ...local, duration_us: 0, name: 'PROC', depth: 1,
      props: [['process', p.name], ['OSThread', String(1000 + (p.pid % 997))], ['Err', '0'], ['Txt', `1C:Enterprise 8.3 (x86-64) (${PLATFORM_VERSION}) Working Process started. Ctrl+C to exit.`]] }));
    counts.PROC = (counts.PROC ?? 0) + 1;
    events++;
  }
  // One process writes no OSThread (its calls are found by t:connectID), when there are two or more.
  const threads = createThreadPlacement(createPrng(o.seed ^ 0x7e4d), new Set(plan.processes.slice(1, 2).map((p) => p.pid)));
  const why = createWhyTally();

  const heap: Lane[] = [];
  for (const s of plan.sessions) {
    const gen = sessionEvents(plan, s, createPrng((o.seed * 7919 + s.index * 104_729) >>> 0), startUs, endUs, threads.place);
    const first = gen.next();
    if (!first.done) heap.push({ session: s, events: gen, head: first.value });
  }
  heapify(heap, before);

  while (heap.length > 0) {
    if (o.signal?.aborted) break;
    const lane = heap[0] as Lane;
    const ev = lane.head;
    const next = lane.events.next();
    if (next.done) {
      heap[0] = heap[heap.length - 1] as Lane;
      heap.pop();
    } else {
      lane.head = next.value;
    }
    if (heap.length > 0) siftDown(heap, 0, before);
    if (o.realtime && ev.end_us / 1000 > Date.now()) {
      files.flush();
      o.onProgress?.(events);
      await sleep(Math.max(50, ev.end_us / 1000 - Date.now()));
    }
    advanceTo(ev.end_us);
    const s = lane.session;
    const local = clock(ev.end_us);
    files.append(join(tjDir, tjProcessFolder(s.process.name, s.process.pid), `${local.hour}.log`),
      formatTjEvent({ ...local, duration_us: ev.duration_us, name: ev.name, depth: ev.depth, props: ev.props }));
    counts[ev.name] = (counts[ev.name] ?? 0) + 1;
    events++;
    if (ev.name === 'DBPOSTGRS') {
      dbEvents++;
      why.written(prop(ev, 'Sql') ?? '', ev.duration_us);
      perBackend.set(s.dbpid, (perBackend.get(s.dbpid) ?? 0) + 1);
      // log_min_duration_statement: 1C runs statements through libpq's unnamed prepared statements.
      if (ev.duration_us >= slowUs && prop(ev, 'Result') !== 'PGRES_FATAL_ERROR') {
        writePg({ at_us: ev.end_us, pid: s.dbpid, session: true, user: 'usr1cv8', database: s.infobase, application: '1CV8', session_start_s: 1_796_000_000,
          lines: [{ label: 'LOG', text: `duration: ${(ev.duration_us / 1000).toFixed(3)} ms  execute <unnamed>: ${prop(ev, 'Sql') ?? ''}` }] });
      }
    }
    if (ev.name === 'CALL') {
      const name = contextFirst(prop(ev, 'Context') ?? '');
      if (ev.call !== undefined) why.add(name, ev.duration_us, ev.call);
      let op = ops.get(name);
      if (op === undefined) {
        op = { uid: `00000000-0000-4000-8000-${String(ops.size + 1).padStart(12, '0')}`, name, nameFull: name, priority: ops.size + 1, targetValue: targetOf(name), measurements: [] };
        ops.set(name, op);
      }
      op.measurements.push({ value: Math.round(ev.duration_us / 1000) / 1000, startMs: Math.round((ev.end_us - ev.duration_us) / 1000),
        userName: s.user, sessionNumber: s.sessionId, weight: 1, runningError: false });
    }
  }
  advanceTo(endUs);
  files.flush();
  o.onProgress?.(events);
  mkdirSync(join(o.out, 'apdex'), { recursive: true });
  writeFileSync(join(o.out, 'apdex', 'export.xml'), encodeExport(writeApdexExport([...ops.values()], { shape: 'attributes', periodMs: start.getTime() })));

  const operations = [...ops.values()].map((op) => countApdex(op.nameFull, op.targetValue as number, op.measurements.map((m) => Math.round(m.value * 1000))));
  const n = operations.reduce((a, x) => a + x.n, 0);
  const sat = operations.reduce((a, x) => a + x.satisfied, 0);
  const tol = operations.reduce((a, x) => a + x.tolerating, 0);
  const sizes = files.sizes();
  const tjFiles = [...sizes.keys()].filter((p) => p.startsWith(`${tjDir}/`));
  const expected: Expected = {
    apdex: { operations, overall_count_weighted: n === 0 ? null : { n, satisfied: sat, tolerating: tol, frustrated: n - sat - tol, apdex: apdexOf(n, sat, tol) } },
    ...plan.expected,
    why: why.result(DOMINANT),
    relation_extension: plan.extensionWait ? `extension of relation ${EXTENSION_OIDS.relation} of database ${EXTENSION_OIDS.database}` : null,
    ...runs.expected,
    one_c: { platform: PLATFORM_VERSION, infobases: [...new Set(plan.sessions.map((x) => x.infobase))].sort() },
    tj: { events, bytes: tjFiles.reduce((a, p) => a + (sizes.get(p) ?? 0), 0), files: tjFiles.length, counts },
    pg: { entries: pgEntries, lines: pgLines, file: relative(o.out, pgPath) },
    atop: { samples: atopSamples, stored_samples: Math.max(0, atopSamples - 1), file: relative(o.out, atopPath) },
  };
  writeFileSync(join(o.out, 'expected.json'), `${JSON.stringify({ options: { users: o.users, duration_ms: o.durationMs, rate: o.rate, seed: o.seed, start: start.toISOString(), time_zone: tz, pg_prefix: o.pgPrefix ?? DEBIAN_PREFIX, conflicts: plan.conflicts }, ...expected }, null, 2)}\n`);
  return expected;
}
