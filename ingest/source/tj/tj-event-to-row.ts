// A parsed TJ event → its `tj_events` row (schemas/tj-row.ts): which property fills which column, what stays in
// `props`, the process and pid from the log's folder name. Meaning is decided here, at the edge, not in the parser.
import { basename, dirname } from 'node:path';
import type { TjEvent } from '../../../schemas/tj-event.js';
import { clickhouseTime } from '../../../schemas/clickhouse-time.js';
import { ID_COLUMNS, NULLABLE_INT_COLUMNS, STRING_COLUMNS, type TjRow } from '../../../schemas/tj-row.js';
import { sqlHash } from '../../../parsers/tj/sql-shape.js';

const INTEGER = /^-?\d+$/;
const UNSIGNED = /^\d+$/;

/** `rphost_1234` → {process: 'rphost', pid: 1234}: split on the last `_` (docs/tj-format.md §1). */
export function processFromPath(file: string): { process: string; pid: number } | null {
  const dir = basename(dirname(file));
  const cut = dir.lastIndexOf('_');
  if (cut <= 0) return null;
  const pid = dir.slice(cut + 1);
  return UNSIGNED.test(pid) ? { process: dir.slice(0, cut), pid: Number(pid) } : null;
}

export function contextEnds(context: string): [string, string] {
  const lines = context.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return [lines[0] ?? '', lines[lines.length - 1] ?? ''];
}

/**
 * 1C repeats the same statements and call stacks thousands of times in a run, and normalising them
 * (regexes, a hash) cost more than the rest of the row: remember recent answers.
 */
function memo<T>(compute: (key: string) => T, limit = 20_000): (key: string) => T {
  let cache = new Map<string, T>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) {
      if (cache.size >= limit) cache = new Map();
      v = compute(key);
      cache.set(key, v);
    }
    return v;
  };
}

const sqlHashOf = memo(sqlHash);
const contextEndsOf = memo(contextEnds);

const chTime = (iso: string): string => clickhouseTime(iso, 6);

export function tjEventToRow(e: TjEvent, proc = processFromPath(e.origin.file)): TjRow {
  const row: TjRow = {
    ts: chTime(e.ts), ts_start: chTime(e.ts_start), duration_us: e.duration_us, event: e.event, depth: e.depth,
    host: e.origin.host, process: proc?.process ?? '', pid: proc?.pid ?? 0,
    infobase: '', connect_id: 0, session_id: 0, client_id: 0, os_thread: 0, user: '', app: '', computer: '',
    context: '', context_first: '', context_last: '', dbms: '', database: '', dbpid: 0, trans: null, func: '',
    sql: '', sql_hash: '0', prm: '', rows: null, rows_affected: null, memory: null, memory_peak: null,
    cpu_time: null, in_bytes: null, out_bytes: null, call_wait: null, regions: [], locks: '',
    wait_connections: [], deadlock_intersections: '', exception: '', descr: '', props: {},
    file: e.origin.file, file_key: e.origin.file_key, file_offset: e.origin.offset,
  };
  const event = ++generation;
  const p = e.properties;
  for (let i = 0; i < p.length; i += 2) {
    const name = p[i] as string;
    const value = p[i + 1] as string;
    // A repeated name: the first value fills the column, later ones stay in props as `name#2`, `name#3`…
    if (seenIn.get(name) === event) { putExtra(row.props, name, value); continue; }
    seenIn.set(name, event);
    const put = COLUMN_OF.get(name);
    if (put === undefined || !put(row, value)) setProp(row.props, name, value);
  }
  if (row.process === '' && row.props.process !== undefined) {
    row.process = row.props.process;
    delete row.props.process;
  }
  if (row.context !== '') [row.context_first, row.context_last] = contextEndsOf(row.context);
  if (row.sql !== '') row.sql_hash = sqlHashOf(row.sql);
  return row;
}

// Which event last used a property name: finds repeats without a Set per event (profiled: the Set and
// keyed lookups in plain objects were a third of the mapping's time). Names are few (~150 in a full TJ).
const seenIn = new Map<string, number>();
let generation = 0;

/** Writes one property of `props`, also one named `__proto__` (an own key, not the prototype). */
function setProp(props: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') Object.defineProperty(props, name, { value, enumerable: true, writable: true, configurable: true });
  else props[name] = value;
}

type Put = (row: TjRow, value: string) => boolean;

/** Fills a column from a property; false when the value does not fit the column's type (it stays in props). */
const COLUMN_OF = new Map<string, Put>();
for (const [name, column] of Object.entries(STRING_COLUMNS)) {
  COLUMN_OF.set(name, (row, value) => { (row as Record<string, unknown>)[column] = value; return true; });
}
for (const [name, column] of Object.entries(ID_COLUMNS)) {
  COLUMN_OF.set(name, (row, value) => {
    if (value === '') return true;
    if (!fitsUInt64(value)) return false;
    (row as Record<string, unknown>)[column] = value.length > 15 ? value : Number(value);
    return true;
  });
}
for (const [name, column] of Object.entries(NULLABLE_INT_COLUMNS)) {
  COLUMN_OF.set(name, (row, value) => {
    if (!INTEGER.test(value) || value.length > 18) return value === '';
    (row as Record<string, unknown>)[column] = Number(value);
    return true;
  });
}
COLUMN_OF.set('dbpid', (row, value) => {
  if (value === '') return true;
  if (!UNSIGNED.test(value) || value.length > 9) return false;
  row.dbpid = Number(value);
  return true;
});
COLUMN_OF.set('Trans', (row, value) => {
  if (!UNSIGNED.test(value) || value.length > 9) return value === '';
  row.trans = Number(value);
  return true;
});
COLUMN_OF.set('Regions', (row, value) => {
  row.regions = value === '' ? [] : value.split(',').map((r) => r.trim());
  return true;
});
COLUMN_OF.set('WaitConnections', (row, value) => {
  const ids = value === '' ? [] : value.split(',').map((r) => r.trim());
  if (!ids.every(fitsUInt64)) return false;
  row.wait_connections = ids.map((x) => (x.length > 15 ? x : Number(x)));
  return true;
});

/** Digits of a value UInt64 holds (at most 18446744073709551615): larger ones stay text in props. */
export function fitsUInt64(value: string): boolean {
  return UNSIGNED.test(value) && (value.length < 20 || (value.length === 20 && value <= '18446744073709551615'));
}

function putExtra(props: Record<string, string>, name: string, value: string): void {
  for (let n = 2; ; n++) {
    const key = `${name}#${n}`;
    if (!Object.hasOwn(props, key)) { props[key] = value; return; }
  }
}
