// What the alert rules read of a segment: typed columns of its rows, decoded from the bytes the source encoded
// (docs/write-path.md), never a property list interpreted a second time. Only the columns a rule needs are
// decoded; the rest of each row is skipped by its length.
import type { Segment, TableRows } from '../bus/bus.js';
import { TJ_EVENTS } from '../../schemas/tj-row.js';
import { PG_LOCK_WAITS, PG_LOG } from '../../schemas/pg-row.js';
import { APDEX_MEASUREMENTS } from '../../schemas/apdex-row.js';
import { PG_ACTIVITY } from '../../schemas/pg-activity-row.js';
import type { TableLayout } from '../../schemas/columns.js';
import { RowBinaryReader } from '../../schemas/row-binary.js';
import type { PgDeadlockParticipant, PgEvent, PgLock } from '../../schemas/pg-event.js';
import type { PgLockEpisode } from '../../schemas/pg-lock-episode.js';

/** A TJ event as the lock rules see it; a property the event did not carry is undefined. */
export interface TjFacts {
  event: string;
  /** End of the event, ISO-8601 UTC with microseconds (as `perfpipe parse tj` prints it). */
  ts: string;
  duration_us: number;
  infobase: string | undefined;
  connect: string | undefined;
  session: string | undefined;
  user: string | undefined;
  /** First non-blank line of Context. */
  context: string | undefined;
  /** WaitConnections and Regions as comma-separated lists. */
  waits: string | undefined;
  regions: string | undefined;
  exception: string | undefined;
  descr: string | undefined;
  edges: string | undefined;
  dbpid: string | undefined;
}

/** A PostgreSQL entry as the lock rules see it: the fields of a stream event they read. */
export type PgLockFactsEvent = Pick<PgEvent, 'kind' | 'sqlstate' | 'pid' | 'ts' | 'database' | 'user' | 'application' | 'session_id' | 'statement' | 'context' | 'deadlock'> & {
  lock: Pick<PgLock, 'phase' | 'pid' | 'mode' | 'object' | 'wait_ms' | 'holder_pids' | 'relation_name'> | null;
  lock_episodes: PgLockFactsEpisode[];
};
export type PgLockFactsEpisode = Pick<PgLockEpisode, 'ts_start' | 'ts_end' | 'pid' | 'mode' | 'object' | 'relation_oid' | 'outcome' | 'wait_ms'
  | 'holder_pids' | 'holder_statements' | 'statement' | 'user' | 'database' | 'application' | 'session_id'>;

/** A measurement as the APDEX rule sees it. */
export interface ApdexFactsMeasurement {
  operation: string;
  target_s: number | null;
  min_level: number | null;
  /** ISO-8601 UTC. */
  ts_start: string;
  duration_us: number;
}

/** `YYYY-MM-DD hh:mm:ss.fff…` (a DateTime64 column) → ISO-8601 `YYYY-MM-DDThh:mm:ss.fff…Z`. */
const iso = (chTime: string): string => `${chTime.slice(0, 10)}T${chTime.slice(11)}Z`;
const text = (v: unknown): string | undefined => (v === '' ? undefined : (v as string));
const orNull = (v: unknown): string | null => (v === '' ? null : (v as string));
const EPOCH = '1970-01-01 00:00:00.000';

function* rowsOf(segment: Segment, layout: TableLayout, names: string[]): Generator<unknown[]> {
  const pick = layout.picker(names);
  for (const t of segment.tables) {
    if (t.layout !== layout.id) continue;
    yield* readAll(t, pick, names.length);
  }
}

function* readAll(t: TableRows, pick: (r: RowBinaryReader, out: unknown[]) => void, width: number): Generator<unknown[]> {
  const r = new RowBinaryReader(t.body);
  for (let i = 0; i < t.rows; i++) {
    const out = new Array<unknown>(width);
    pick(r, out);
    yield out;
  }
}

const TJ_COLUMNS = ['event', 'ts', 'duration_us', 'infobase', 'connect_id', 'session_id', 'user', 'context_first', 'wait_connections',
  'regions', 'exception', 'descr', 'deadlock_intersections', 'dbpid'];

export function* tjFacts(segment: Segment): Generator<TjFacts> {
  for (const v of rowsOf(segment, TJ_EVENTS as TableLayout, TJ_COLUMNS)) {
    const waits = v[8] as Array<number | string>;
    const regions = v[9] as string[];
    yield {
      event: v[0] as string, ts: iso(v[1] as string), duration_us: v[2] as number, infobase: text(v[3]),
      connect: v[4] === 0 ? undefined : String(v[4]), session: v[5] === 0 ? undefined : String(v[5]),
      user: text(v[6]), context: text(v[7]),
      waits: waits.length === 0 ? undefined : waits.join(','), regions: regions.length === 0 ? undefined : regions.join(','),
      exception: text(v[10]), descr: text(v[11]), edges: text(v[12]), dbpid: v[13] === 0 ? undefined : String(v[13]),
    };
  }
}

const PG_LOG_COLUMNS = ['kind', 'sqlstate', 'pid', 'ts', 'database', 'user', 'application', 'session_id', 'statement', 'context',
  'lock_phase', 'lock_mode', 'lock_object', 'lock_wait_ms', 'lock_holder_pids', 'lock_relation_name', 'props', 'file_offset'];
const PG_WAIT_COLUMNS = ['ts_start', 'ts_end', 'pid', 'mode', 'object', 'relation_oid', 'outcome', 'wait_ms', 'holder_pids',
  'holder_statements', 'statement', 'user', 'database', 'application', 'session_id', 'file_offset'];

/** The segment's entries in file order, each with the wait episodes it closed (pg_lock_waits rows by file_offset). */
export function pgFacts(segment: Segment): PgLockFactsEvent[] {
  const closed = new Map<number, PgLockFactsEpisode[]>();
  for (const v of rowsOf(segment, PG_LOCK_WAITS as TableLayout, PG_WAIT_COLUMNS)) {
    const ep: PgLockFactsEpisode = {
      ts_start: iso(v[0] as string), ts_end: iso(v[1] as string), pid: v[2] as number, mode: orNull(v[3]), object: v[4] as string,
      relation_oid: v[5] as number | null, outcome: v[6] as PgLockEpisode['outcome'], wait_ms: v[7] as number | null,
      holder_pids: v[8] as number[], holder_statements: v[9] as Record<string, string[]>, statement: orNull(v[10]),
      user: orNull(v[11]), database: orNull(v[12]), application: orNull(v[13]), session_id: orNull(v[14]),
    };
    const at = v[15] as number;
    const list = closed.get(at);
    if (list) list.push(ep); else closed.set(at, [ep]);
  }
  const out: PgLockFactsEvent[] = [];
  for (const v of rowsOf(segment, PG_LOG as TableLayout, PG_LOG_COLUMNS)) {
    const props = v[16] as Record<string, string>;
    const phase = v[10] as string;
    out.push({
      kind: v[0] as PgEvent['kind'], sqlstate: orNull(v[1]), pid: v[2] === 0 ? null : v[2] as number,
      ts: v[3] === EPOCH ? null : iso(v[3] as string), database: orNull(v[4]), user: orNull(v[5]), application: orNull(v[6]),
      session_id: orNull(v[7]), statement: orNull(v[8]), context: orNull(v[9]),
      deadlock: props.deadlock === undefined ? null : JSON.parse(props.deadlock) as PgDeadlockParticipant[],
      // The waiting process writes its own `still waiting` line: the entry's pid is the lock message's pid.
      lock: phase === '' ? null : {
        phase: phase as PgLock['phase'], pid: v[2] === 0 ? null : v[2] as number, mode: orNull(v[11]), object: v[12] as string,
        wait_ms: v[13] as number | null, holder_pids: v[14] as number[], relation_name: orNull(v[15]),
      },
      lock_episodes: closed.get(v[17] as number) ?? [],
    });
  }
  return out;
}

const APDEX_COLUMNS = ['operation', 'target_s', 'min_level', 'ts_start', 'duration_us'];

export function* apdexFacts(segment: Segment): Generator<ApdexFactsMeasurement> {
  for (const v of rowsOf(segment, APDEX_MEASUREMENTS as TableLayout, APDEX_COLUMNS)) {
    yield {
      operation: v[0] as string, target_s: v[1] as number | null, min_level: v[2] as number | null,
      ts_start: iso(v[3] as string), duration_us: v[4] as number,
    };
  }
}

/** A backend of a pg_activity sample as the blocked-backend rule sees it. */
export interface PgActivityFactsBackend {
  /** Sample time, ISO-8601 UTC. */
  ts: string;
  server: string;
  interval_ms: number;
  pid: number;
  database: string;
  user: string;
  application: string;
  state: string;
  wait_event_type: string;
  wait_event: string;
  /** ISO-8601 UTC, or null: with pid, what tells one blocked statement from the next. */
  query_start: string | null;
  query: string;
  blocking_pids: number[];
}

const PG_ACTIVITY_COLUMNS = ['ts', 'server', 'interval_ms', 'pid', 'database', 'user', 'application', 'state', 'wait_event_type',
  'wait_event', 'query_start', 'query', 'blocking_pids'];

export function pgActivityFacts(segment: Segment): PgActivityFactsBackend[] {
  const out: PgActivityFactsBackend[] = [];
  for (const v of rowsOf(segment, PG_ACTIVITY as TableLayout, PG_ACTIVITY_COLUMNS)) {
    out.push({
      ts: iso(v[0] as string), server: v[1] as string, interval_ms: v[2] as number, pid: v[3] as number, database: v[4] as string,
      user: v[5] as string, application: v[6] as string, state: v[7] as string, wait_event_type: v[8] as string, wait_event: v[9] as string,
      query_start: v[10] === null ? null : iso(v[10] as string), query: v[11] as string, blocking_pids: v[12] as number[],
    });
  }
  return out;
}
