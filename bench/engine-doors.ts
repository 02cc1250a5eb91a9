// Which door into the embedded engine is cheapest for `tj_events` rows, and which table design makes inserts cheap:
// the engine alone, nothing of perfpipe in the timed loop. The generated TJ is parsed and mapped once
// (tjEventToRow), the rows go into a staging table once, and the engine itself writes every batch in every format
// (TSV, RowBinary, Native, …), so each door carries exactly the same rows. Each configuration then inserts all rows
// into a FRESH data directory in a child process of its own (a fresh engine: no caches, no merges left over),
// timed with wall time and process.cpuUsage (every engine thread). The machine is shared: before each run the
// bench flushes dirty pages (sync) and waits for the other cores to go quiet, measures what the rest of the
// machine used during the run ("others", in cores) and runs again when that was more than --max-foreign.
// The reference is JSONCompactEachRow through chdb's rawInsert (the sink's door until 4f72ed4) at the default
// segment's rows into today's tables (queries/ddl) with segmentInsertSettings; every figure is also a ratio to it.
//
// Doors:
//   json           JSONCompactEachRow through chdb's rawInsert (the reference)
//   json-serial    the same with input_format_parallel_parsing = 0 (one parsing thread: one block, one part)
//   json-native    the same bytes through the addon's InsertRawAsyncConnection (no line counting)
//   tsv            TabSeparated (engine-written) through chdb's rawInsert
//   rowbinary, native, native-string   inline binary through InsertRawAsyncConnection (native-string: String
//                  where the table has LowCardinality(String)). Not safe (below): batches holding "\n\n" are
//                  left out, so these doors time a subset of the rows, and none at all at large batches
//   guarded-native Native inline when the bytes hold no "\n\n", else through file()
//   file-json, file-rowbinary, file-native, file-native-string   the bytes written to /dev/shm, then
//                  `INSERT INTO tj_events (…) SETTINGS … SELECT … FROM file(path, Format[, structure])`, file removed
//   spool-rowbinary the RowBinary file door as ingest/store/chdb-binary-insert.ts has it: the file beside the data
//                  directory (disk), max_threads = 1, max_insert_threads = 1 (SQL text here, not bound parameters)
//   arrow          columns registered with the addon's ArrowRegisterColumns on the session's connection, then
//                  `INSERT … SELECT … FROM arrowstream(name)`; flat columns only, so arrays and the map travel as
//                  JSON text that the engine JSONExtracts (chdb's registerArrowTable helper ignores its session)
// Inline binary safety: chdb-node appends "\n" and the bytes to the INSERT text (lib/chdb_node.cpp,
// InsertRawWorker::Execute); the engine's client ends inline data of any format but Values at the first "\n\n"
// (ClientBase::analyzeMultiQueryText) and runs what follows as further SQL. The safety check shows both outcomes:
// an error when the cut falls inside a row, rows silently lost (success returned) when it falls between rows.
//
// Usage: npx tsx bench/engine-doors.ts [--size-mb 200] [--repeats 2] [--full] [--settle]
//          [--doors json,file-native,…] [--batches 2343,23430] [--designs today,lz4,…] [--dedups token-mv,…]
//          [--no-checks] [--keep-payloads] [--max-foreign 0.3] [--quiet-wait 60]
// Default (about 4 minutes on a quiet 2-core machine, 40 s of it preparing the payloads): json and file-native at
// the default segment's rows, json, spool-rowbinary and file-native at ten times that, two runs each, and the
// checks (exactly-once of the rollups under a replay, inline binary safety, two inserts at once, compressed size
// and TTL RECOMPRESS). --full: every door at 1×, 10× and 21× the segment, every design and dedup setting at the
// json and file-native doors (over an hour; --doors/--batches/--designs/--dedups pick a part of it).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { feedTjFile } from './tj-feed.js';
import { generateTj, type GeneratedTj } from './generate-tj.js';
import { benchWorkDir, isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, formatTable } from './figures.js';
import { loadMigrations } from '../ingest/store/migrations.js';
import { segmentInsertSettings } from '../ingest/sink/clickhouse-sink.js';
import { PipelineConfigSchema } from '../ingest/config/config.js';
import { tjEventToRow } from '../ingest/source/tj/tj-event-to-row.js';
import type { TjEvent } from '../schemas/tj-event.js';

// ---------------------------------------------------------------------------------------------------------------
// The engine: chdb's Session and its native addon (the addon's InsertRawAsyncConnection takes any format; chdb's
// documented rawInsert lets only text formats through).

interface ChdbResultLike { bytes(): Uint8Array }
interface ChdbSession {
  connection: unknown;
  query(sql: string, format?: string): string;
  queryAsync(sql: string, opts?: { format?: string }): Promise<ChdbResultLike>;
  insert(params: { table: string; columns: readonly string[]; format: string; values: Buffer; settings?: Record<string, string | number> }): Promise<unknown>;
  close(): void;
}
interface NativeRaw { bytes: Uint8Array; rowsRead?: number; elapsed?: number }
interface ArrowColumn { name: string; format: string; length: number; nullCount: number; buffers: (Buffer | null)[] }
interface ChdbNative {
  InsertRawAsyncConnection(conn: unknown, prefix: string, data: Buffer, countLines: boolean): Promise<{ rowsWritten: number; elapsed: number }>;
  QueryAsyncConnection(conn: unknown, sql: string, format: string): Promise<NativeRaw>;
  ArrowRegisterColumns(conn: unknown, name: string, columns: ArrowColumn[]): void;
  ArrowUnregister(conn: unknown, name: string): void;
}

function engine(): { Session: new (path: string) => ChdbSession; native: ChdbNative } {
  const require = createRequire(join(repoRoot(), 'package.json'));
  const chdbDir = dirname(require.resolve('chdb'));
  const { Session } = require('chdb') as { Session: new (path: string) => ChdbSession };
  const native = (require(join(chdbDir, 'dist', 'loader.js')) as { loadNative(): ChdbNative }).loadNative();
  return { Session, native };
}

async function queryBytes(native: ChdbNative, s: ChdbSession, sql: string, format: string): Promise<Buffer> {
  const r = await native.QueryAsyncConnection(s.connection, sql, format);
  return Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
}

async function queryJson<T>(native: ChdbNative, s: ChdbSession, sql: string): Promise<T[]> {
  const text = (await queryBytes(native, s, sql, 'JSONEachRow')).toString('utf8');
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as T);
}

/** The columns of a table's rows: the keys of the first row (every row comes from one mapping). */
function columnsOf(rows: readonly object[]): string[] {
  return rows.length === 0 ? [] : Object.keys(rows[0] as object);
}

/**
 * JSONCompactEachRow as the sink wrote it until RowBinary replaced it (4f72ed4): one `[v1,v2,…]` line per row in
 * the given column order (a value missing from a row is written as null).
 */
function encodeJsonCompactRows(rows: readonly object[], columns: readonly string[]): Buffer {
  const lines: Buffer[] = [];
  const values: unknown[] = new Array(columns.length);
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (let i = 0; i < columns.length; i++) values[i] = r[columns[i] as string];
    lines.push(Buffer.from(`${JSON.stringify(values)}\n`, 'utf8'));
  }
  return Buffer.concat(lines);
}

// ---------------------------------------------------------------------------------------------------------------
// Configurations.

export const DOORS = ['json', 'json-serial', 'json-native', 'tsv', 'rowbinary', 'native', 'native-string', 'guarded-native',
  'file-json', 'file-rowbinary', 'spool-rowbinary', 'file-native', 'file-native-string', 'arrow'] as const;
export type Door = (typeof DOORS)[number];
/** today: the migrations as they are; lz4: 001 without CODEC clauses; noviews: both tj_* views dropped;
 *  lean-views: the views read a filtered, narrowed subquery; lock-view / call-view: only that one view;
 *  lz4-noviews: both changes; lz4-ttl: lz4 plus a RECOMPRESS TTL that has not expired for the data;
 *  no-rollup-window: today's with the two TJ rollup tables back at non_replicated_deduplication_window = 0, as
 *  they were before 043 (a non-replicated MergeTree without a window keeps no dedup log, so the views cannot drop
 *  a replayed block). */
export const DESIGNS = ['today', 'no-rollup-window', 'lz4', 'noviews', 'lean-views', 'lock-view', 'call-view', 'lz4-noviews', 'lz4-ttl'] as const;
export type Design = (typeof DESIGNS)[number];
/** token-mv: segmentInsertSettings (today); token: the same without deduplicate_blocks_in_dependent_materialized_views;
 *  notoken: no insert_deduplication_token (block-hash dedup still on); off: insert_deduplicate=0. */
export const DEDUPS = ['token-mv', 'token', 'notoken', 'off'] as const;
export type Dedup = (typeof DEDUPS)[number];

type PayloadKind = 'json' | 'tsv' | 'rowbinary' | 'native' | 'native-string';
const KIND_OF: Record<Door, PayloadKind> = {
  json: 'json', 'json-serial': 'json', 'json-native': 'json', tsv: 'tsv', rowbinary: 'rowbinary', native: 'native', 'native-string': 'native-string',
  'guarded-native': 'native', 'file-json': 'json', 'file-rowbinary': 'rowbinary', 'spool-rowbinary': 'rowbinary', 'file-native': 'native', 'file-native-string': 'native-string',
  arrow: 'json',
};
/** Inline binary doors without a guard: a batch holding "\n\n" would be cut, so it is left out of their timing. */
const UNGUARDED: readonly Door[] = ['rowbinary', 'native', 'native-string'];
const FORMAT_OF: Record<PayloadKind, string> = { json: 'JSONCompactEachRow', tsv: 'TabSeparated', rowbinary: 'RowBinary', native: 'Native', 'native-string': 'Native' };

interface RunSpec {
  mode: 'insert';
  door: Door;
  batch: number;
  design: Design;
  dedup: Dedup;
  payloads: string;
  data: string;
  columns: string[];
  rows: number;
  settle: boolean;
}
interface RunResult {
  wallS: number;
  cpuUserS: number;
  cpuSysS: number;
  stored: number;
  lockMinuteRows: number;
  callMinuteN: number;
  parts: number;
  bytesOnDisk: number;
  settleS: number;
  cpuSettledS: number;
  inlineBatches: number;
  /** Rows the timed loop inserted (all, except for the unguarded inline binary doors). */
  rowsTimed: number;
  /** CPU the rest of the machine used during the timed loop, in cores (other agents share it). */
  foreignCores: number;
  error?: string;
}

function insertSettings(dedup: Dedup, token: string): Record<string, string | number> {
  const s = segmentInsertSettings(token);
  if (dedup === 'token') s.deduplicate_blocks_in_dependent_materialized_views = 0;
  if (dedup === 'notoken' || dedup === 'off') delete s.insert_deduplication_token;
  if (dedup === 'off') { s.insert_deduplicate = 0; s.deduplicate_blocks_in_dependent_materialized_views = 0; }
  return s;
}

function settingsClause(settings: Record<string, string | number>): string {
  const parts = Object.entries(settings).map(([k, v]) => `${k}=${typeof v === 'number' ? v : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`}`);
  return parts.length === 0 ? '' : ` SETTINGS ${parts.join(', ')}`;
}

const CODEC = /\s+CODEC\((?:[^()]|\([^()]*\))*\)/g;

/** The DDL of a design: perfpipe's migrations, changed where the design says. */
function designStatements(design: Design): string[] {
  const lz4 = design === 'lz4' || design === 'lz4-noviews' || design === 'lz4-ttl';
  const out: string[] = [];
  for (const m of loadMigrations()) {
    for (let st of m.statements) {
      // 045 moved today's text columns to LZ4 and removes codecs that the lz4 designs never had: skip it there.
      if (lz4 && m.version === 45 && /ALTER TABLE tj_events/.test(st)) continue;
      if (lz4 && m.version === 1 && /CREATE TABLE IF NOT EXISTS tj_events/.test(st)) {
        st = st.replace(CODEC, '');
        if (design === 'lz4-ttl') st = st.replace(/\nSETTINGS /, "\nTTL toDateTime(ts) + INTERVAL 3650 DAY RECOMPRESS CODEC(ZSTD(3))\nSETTINGS ");
      }
      out.push(st);
    }
  }
  const drop = (v: string): string => `DROP TABLE IF EXISTS ${v}`;
  if (design === 'noviews' || design === 'lz4-noviews') out.push(drop('tj_lock_minute_mv'), drop('tj_call_minute_mv'));
  if (design === 'lock-view') out.push(drop('tj_call_minute_mv'));
  if (design === 'call-view') out.push(drop('tj_lock_minute_mv'));
  if (design === 'lean-views') out.push(drop('tj_lock_minute_mv'), drop('tj_call_minute_mv'), ...LEAN_VIEWS);
  if (design === 'no-rollup-window') {
    for (const t of ['tj_lock_minute', 'tj_call_minute']) out.push(`ALTER TABLE ${t} MODIFY SETTING non_replicated_deduplication_window = 0`);
  }
  return out;
}

/** The same rollups, each reading a subquery that keeps only its rows and columns before anything else runs. */
const LEAN_VIEWS = [
  `CREATE MATERIALIZED VIEW tj_lock_minute_mv TO tj_lock_minute AS
SELECT
    toStartOfMinute(ts) AS minute, infobase, space.1 AS region, context_first AS context,
    toUInt64(countIf(event = 'TLOCK')) AS waits,
    toUInt64(sumIf(duration_us, event = 'TLOCK')) AS wait_us_sum,
    toUInt64(maxIf(duration_us, event = 'TLOCK')) AS wait_us_max,
    toUInt64(countIf(event = 'TLOCK' AND space.2 = 1)) AS wait_events,
    toUInt64(sumIf(duration_us, event = 'TLOCK' AND space.2 = 1)) AS wait_event_us_sum,
    toUInt64(countIf(event = 'TTIMEOUT')) AS timeouts,
    toUInt64(countIf(event = 'TDEADLOCK')) AS deadlocks
FROM
(
    SELECT ts, infobase, event, duration_us, context_first,
        arrayJoin(arrayZip(spaces, arrayEnumerate(spaces))) AS space
    FROM
    (
        SELECT ts, infobase, event, duration_us, context_first,
            multiIf(
                event = 'TLOCK' AND notEmpty(regions), CAST(regions AS Array(String)),
                event = 'TDEADLOCK', [arrayFirst(e -> toUInt64(e[1]) = connect_id,
                                                 extractAllGroupsVertical(deadlock_intersections, '(?:^|,)\\\\s*(\\\\d+)\\\\s+(\\\\d+)\\\\s+([^\\\\s,]+)'))[3]],
                ['']) AS spaces
        FROM (
            SELECT ts, infobase, event, duration_us, context_first, regions, connect_id, deadlock_intersections
            FROM tj_events
            WHERE (event = 'TLOCK' AND notEmpty(wait_connections)) OR event IN ('TTIMEOUT', 'TDEADLOCK')
        )
    )
)
GROUP BY minute, infobase, region, context`,
  `CREATE MATERIALIZED VIEW tj_call_minute_mv TO tj_call_minute AS
SELECT
    toStartOfMinute(ts_start) AS minute, infobase, context_first AS context,
    toUInt64(count()) AS n,
    toUInt64(sum(duration_us)) AS duration_us_sum,
    sumMapState([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)]) AS buckets_10ms
FROM (SELECT ts_start, infobase, context_first, duration_us FROM tj_events WHERE event = 'CALL' AND context_first != '')
GROUP BY minute, infobase, context`,
];

// ---------------------------------------------------------------------------------------------------------------
// Preparation: rows once, a staging table once, every (kind, batch) written by the engine into files.

interface Prepared {
  input: GeneratedTj;
  rows: number;
  columns: string[];
  dir: string;
  perSegment: number;
  /** kind/batch → batches that hold "\n\n" (inline data would be cut there), of all batches. */
  blankLines: Map<string, { hit: number; of: number }>;
}

function parseAll(input: GeneratedTj): TjEvent[] {
  const events: TjEvent[] = [];
  for (const file of input.files) feedTjFile(input, file, (out) => events.push(...out.events));
  return events;
}

const batchDir = (dir: string, kind: PayloadKind, batch: number): string => join(dir, `${kind}-${batch}`);
const batchFiles = (d: string): string[] => readdirSync(d).filter((f) => f.endsWith('.bin')).sort();

async function prepare(sizeMb: number, batches: number[], kinds: PayloadKind[], root: string): Promise<Prepared> {
  const input = generateTj({ sizeMb });
  const dir = join(root, `tj-${sizeMb}mb-seed${input.seed}-v${input.generator_version}`);
  const segmentBytes = PipelineConfigSchema.parse({}).segment_bytes;
  const metaFile = join(dir, 'meta.json');
  let meta: { rows: number; columns: string[] } | null = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) : null;
  const missing = (kind: PayloadKind, batch: number): boolean => !existsSync(join(batchDir(dir, kind, batch), 'done'));
  const todo = kinds.flatMap((k) => batches.filter((b) => missing(k, b)).map((b) => [k, b] as const));
  if (meta === null || todo.length > 0) {
    mkdirSync(dir, { recursive: true });
    const events = parseAll(input);
    const rows = events.map((e) => tjEventToRow(e));
    events.length = 0;
    const columns = columnsOf(rows);
    meta = { rows: rows.length, columns };
    const { Session, native } = engine();
    const stageDb = join(dir, 'stage-db');
    rmSync(stageDb, { recursive: true, force: true });
    const s = new Session(stageDb);
    try {
      const create = loadMigrations()[0]?.statements.find((st) => /CREATE TABLE IF NOT EXISTS tj_events/.test(st));
      if (create === undefined) throw new Error('001 has no tj_events');
      s.query(create);
      const types = await queryJson<{ name: string; type: string }>(native, s, `SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'tj_events'`);
      const typeOf = new Map(types.map((t) => [t.name, t.type]));
      s.query(`CREATE TABLE stage (seq UInt64, ${columns.map((c) => `\`${c}\` ${typeOf.get(c)}`).join(', ')}) ENGINE = MergeTree ORDER BY seq`);
      for (let i = 0; i < rows.length; i += 20_000) {
        const slice = rows.slice(i, i + 20_000).map((r, j) => ({ seq: i + j, ...r }));
        await native.InsertRawAsyncConnection(s.connection, `INSERT INTO stage (seq, ${columns.join(', ')}) SETTINGS async_insert=0 FORMAT JSONCompactEachRow`, encodeJsonCompactRows(slice, ['seq', ...columns]), false);
      }
      s.query('OPTIMIZE TABLE stage FINAL');
      const staged = Number(s.query('SELECT count() FROM stage', 'TSV').trim());
      if (staged !== rows.length) throw new Error(`staged ${staged} of ${rows.length} rows`);
      const exact = columns.map((c) => `\`${c}\``).join(', ');
      const stringly = columns.map((c) => {
        const t = typeOf.get(c) ?? '';
        const plain = t.replace(/LowCardinality\(String\)/g, 'String');
        return plain === t ? `\`${c}\`` : `CAST(\`${c}\` AS ${plain}) AS \`${c}\``;
      }).join(', ');
      for (const [kind, batch] of todo) {
        const d = batchDir(dir, kind, batch);
        rmSync(d, { recursive: true, force: true });
        mkdirSync(d, { recursive: true });
        for (let i = 0, n = 0; i < rows.length; i += batch, n++) {
          const file = join(d, `${String(n).padStart(5, '0')}.bin`);
          if (kind === 'json') {
            writeFileSync(file, encodeJsonCompactRows(rows.slice(i, i + batch), columns));
            continue;
          }
          const sql = `SELECT ${kind === 'native-string' ? stringly : exact} FROM stage WHERE seq >= ${i} AND seq < ${i + batch} ORDER BY seq SETTINGS max_threads = 1, max_block_size = 1000000, preferred_block_size_bytes = 10000000000`;
          writeFileSync(file, await queryBytes(native, s, sql, FORMAT_OF[kind]));
        }
        writeFileSync(join(d, 'done'), '');
      }
    } finally {
      s.close();
      rmSync(stageDb, { recursive: true, force: true });
    }
    writeFileSync(metaFile, JSON.stringify(meta));
  }
  const blankLines = new Map<string, { hit: number; of: number }>();
  for (const kind of kinds) {
    for (const batch of batches) {
      const d = batchDir(dir, kind, batch);
      const files = batchFiles(d);
      blankLines.set(`${kind}-${batch}`, { hit: files.filter((f) => readFileSync(join(d, f)).includes('\n\n')).length, of: files.length });
    }
  }
  const bytesPerRow = input.bytes / meta.rows;
  return { input, rows: meta.rows, columns: meta.columns, dir, perSegment: Math.max(1, Math.round(segmentBytes / bytesPerRow)), blankLines };
}

// ---------------------------------------------------------------------------------------------------------------
// Arrow columns from the JSON rows (untimed: the JS side would build them instead of JSON text).

function arrowColumns(lines: unknown[][], columns: string[], typeOf: Map<string, string>): { cols: ArrowColumn[]; select: string } {
  const n = lines.length;
  const cols: ArrowColumn[] = [];
  const select: string[] = [];
  const validity = (j: number): { buf: Buffer | null; nulls: number } => {
    let nulls = 0;
    const buf = Buffer.alloc(Math.ceil(n / 8));
    for (let i = 0; i < n; i++) {
      if (lines[i]![j] === null) nulls++;
      else buf[i >> 3]! |= 1 << (i & 7);
    }
    return { buf: nulls === 0 ? null : buf, nulls };
  };
  const utf8 = (name: string, j: number, text: (v: unknown) => string): ArrowColumn => {
    const strings = lines.map((l) => text(l[j]));
    const offsets = new Int32Array(n + 1);
    let total = 0;
    for (let i = 0; i < n; i++) { offsets[i] = total; total += Buffer.byteLength(strings[i]!); }
    offsets[n] = total;
    const data = Buffer.allocUnsafe(Math.max(1, total));
    for (let i = 0, at = 0; i < n; i++) at += data.write(strings[i]!, at, 'utf8');
    return { name, format: 'u', length: n, nullCount: 0, buffers: [null, Buffer.from(offsets.buffer), data] };
  };
  columns.forEach((c, j) => {
    const t = typeOf.get(c) ?? '';
    const inner = t.replace(/^Nullable\((.*)\)$/, '$1');
    const { buf, nulls } = t.startsWith('Nullable(') ? validity(j) : { buf: null, nulls: 0 };
    if (/^DateTime64\(6/.test(t)) {
      const a = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const s = lines[i]![j] as string;
        a[i] = BigInt(Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10), +s.slice(11, 13), +s.slice(14, 16), +s.slice(17, 19)) * 1000 + +s.slice(20, 26));
      }
      cols.push({ name: c, format: 'tsu:UTC', length: n, nullCount: 0, buffers: [null, Buffer.from(a.buffer)] });
    } else if (inner === 'UInt64' || inner === 'Int64') {
      const a = inner === 'UInt64' ? new BigUint64Array(n) : new BigInt64Array(n);
      for (let i = 0; i < n; i++) { const v = lines[i]![j]; a[i] = v === null ? 0n : BigInt(v as number | string); }
      cols.push({ name: c, format: inner === 'UInt64' ? 'L' : 'l', length: n, nullCount: nulls, buffers: [buf, Buffer.from(a.buffer)] });
    } else if (inner === 'UInt32' || inner === 'UInt16') {
      const a = inner === 'UInt32' ? new Uint32Array(n) : new Uint16Array(n);
      for (let i = 0; i < n; i++) a[i] = Number(lines[i]![j] ?? 0);
      cols.push({ name: c, format: inner === 'UInt32' ? 'I' : 'S', length: n, nullCount: nulls, buffers: [buf, Buffer.from(a.buffer)] });
    } else if (inner === 'String' || inner === 'LowCardinality(String)') {
      cols.push(utf8(c, j, (v) => v as string));
    } else if (/^(Array|Map)\(/.test(t)) {
      cols.push(utf8(c, j, (v) => JSON.stringify(v)));
      // arrowstream() reads every column as Nullable: arrays and maps cannot be, so the text is taken as not null.
      select.push(`JSONExtract(assumeNotNull(\`${c}\`), '${t.replace(/LowCardinality\(String\)/g, 'String')}') AS \`${c}\``);
      return;
    } else {
      throw new Error(`arrow door: no mapping for ${c} ${t}`);
    }
    select.push(`\`${c}\``);
  });
  return { cols, select: select.join(', ') };
}

// ---------------------------------------------------------------------------------------------------------------
// One configuration, in a child process (a fresh engine on a fresh data directory).

/** CPU seconds every core of the machine has been busy since boot. */
function machineBusyS(): number {
  return cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0) / 1000;
}

/** Waits (bounded) until the rest of the machine is nearly idle: timings of a shared 2-core box mean nothing otherwise. */
async function waitQuiet(maxWaitS: number, threshold = 0.15): Promise<number> {
  const start = performance.now();
  for (;;) {
    const b0 = machineBusyS();
    await new Promise((r) => setTimeout(r, 1000));
    const busy = machineBusyS() - b0;
    if (busy < threshold || (performance.now() - start) / 1000 > maxWaitS) return busy;
  }
}

async function count(native: ChdbNative, s: ChdbSession, sql: string): Promise<number> {
  const r = await queryJson<Record<string, string | number>>(native, s, sql);
  return Number(Object.values(r[0] ?? {})[0] ?? -1);
}

async function childInsert(spec: RunSpec): Promise<RunResult> {
  const { Session, native } = engine();
  rmSync(spec.data, { recursive: true, force: true });
  const s = new Session(spec.data);
  try {
    for (const st of designStatements(spec.design)) s.query(st);
    const kind = KIND_OF[spec.door];
    const d = batchDir(spec.payloads, kind, spec.batch);
    const bodies = batchFiles(d).map((f) => readFileSync(join(d, f)));
    const types = await queryJson<{ name: string; type: string }>(native, s, `SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'tj_events'`);
    const typeOf = new Map(types.map((t) => [t.name, t.type]));
    const cols = spec.columns.join(', ');
    const shm = join('/dev/shm', `perfpipe-engine-doors-${process.pid}`);
    mkdirSync(shm, { recursive: true });
    const arrow = spec.door === 'arrow'
      ? bodies.map((b) => arrowColumns(b.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown[]), spec.columns, typeOf))
      : [];
    let inlineBatches = 0;
    let rowsTimed = 0;
    const structure = spec.columns.map((c) => `${c} ${typeOf.get(c)}`).join(', ').replace(/'/g, "\\'");
    const spool = `${spec.data}-spool`;
    mkdirSync(spool, { recursive: true });
    const viaFile = async (n: number, body: Buffer, head: string, format: string, dir = shm, tail = ''): Promise<void> => {
      const path = join(dir, `${n}.bin`);
      writeFileSync(path, body);
      try {
        const args = format === 'Native' ? `'${path}', Native` : `'${path}', ${format}, '${structure}'`;
        await native.QueryAsyncConnection(s.connection, `${head} SELECT ${cols} FROM file(${args})${tail}`, 'CSV');
      } finally {
        unlinkSync(path);
      }
    };
    const one = async (n: number, body: Buffer): Promise<void> => {
      const settings = insertSettings(spec.dedup, `doors-${n}`);
      if (spec.door === 'json-serial') settings.input_format_parallel_parsing = 0;
      const head = `INSERT INTO tj_events (${cols})${settingsClause(settings)}`;
      switch (spec.door) {
        case 'json':
        case 'json-serial':
        case 'tsv':
          await s.insert({ table: 'tj_events', columns: spec.columns, format: spec.door === 'tsv' ? 'TSV' : 'JSONCompactEachRow', values: body, settings });
          inlineBatches++;
          return;
        case 'json-native':
        case 'rowbinary':
        case 'native':
        case 'native-string':
          await native.InsertRawAsyncConnection(s.connection, `${head} FORMAT ${FORMAT_OF[kind]}`, body, false);
          inlineBatches++;
          return;
        case 'guarded-native':
          if (!body.includes('\n\n')) {
            await native.InsertRawAsyncConnection(s.connection, `${head} FORMAT Native`, body, false);
            inlineBatches++;
            return;
          }
          // Bytes that the inline path would cut go through a file.
          await viaFile(n, body, head, 'Native');
          return;
        case 'spool-rowbinary': {
          // Settings after the SELECT, as the store writes them (pushed down to the INSERT as well).
          const tail = settingsClause({ ...settings, max_threads: 1, max_insert_threads: 1 });
          await viaFile(n, body, `INSERT INTO tj_events (${cols})`, 'RowBinary', spool, tail);
          return;
        }
        case 'file-json':
        case 'file-rowbinary':
        case 'file-native':
        case 'file-native-string':
          await viaFile(n, body, head, FORMAT_OF[kind]);
          return;
        case 'arrow': {
          const name = `doors_${n}`;
          const a = arrow[n]!;
          native.ArrowRegisterColumns(s.connection, name, a.cols);
          try {
            await native.QueryAsyncConnection(s.connection, `${head} SELECT ${a.select} FROM arrowstream('${name}')`, 'CSV');
          } finally {
            native.ArrowUnregister(s.connection, name);
          }
          return;
        }
      }
    };
    let error: string | undefined;
    const busy0 = machineBusyS();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    try {
      for (const [n, body] of bodies.entries()) {
        if (UNGUARDED.includes(spec.door) && body.includes('\n\n')) continue;
        await one(n, body);
        rowsTimed += Math.min(spec.batch, spec.rows - n * spec.batch);
      }
    } catch (e) {
      error = String((e as Error).message ?? e).split('\n')[0]?.slice(0, 300);
    }
    const wallS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const foreignCores = Math.max(0, machineBusyS() - busy0 - (cpu.user + cpu.system) / 1e6) / wallS;
    let settleS = 0;
    if (spec.settle) {
      const t1 = performance.now();
      while ((await count(native, s, `SELECT count() FROM system.merges`)) > 0 && performance.now() - t1 < 60_000) await new Promise((r) => setTimeout(r, 100));
      settleS = (performance.now() - t1) / 1000;
    }
    const cpuSettled = process.cpuUsage(cpu0);
    rmSync(shm, { recursive: true, force: true });
    rmSync(spool, { recursive: true, force: true });
    const hasTable = async (t: string): Promise<boolean> => (await count(native, s, `SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = '${t}'`)) > 0;
    return {
      wallS,
      cpuUserS: cpu.user / 1e6,
      cpuSysS: cpu.system / 1e6,
      stored: await count(native, s, 'SELECT count() FROM tj_events'),
      lockMinuteRows: (await hasTable('tj_lock_minute_mv')) ? await count(native, s, 'SELECT sum(waits) + sum(timeouts) + sum(deadlocks) FROM tj_lock_minute') : -1,
      callMinuteN: (await hasTable('tj_call_minute_mv')) ? await count(native, s, 'SELECT sum(n) FROM tj_call_minute') : -1,
      parts: await count(native, s, `SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'tj_events' AND active`),
      bytesOnDisk: await count(native, s, `SELECT sum(bytes_on_disk) FROM system.parts WHERE database = currentDatabase() AND table = 'tj_events' AND active`),
      settleS,
      cpuSettledS: (cpuSettled.user + cpuSettled.system) / 1e6,
      inlineBatches,
      rowsTimed,
      foreignCores,
      ...(error === undefined ? {} : { error }),
    };
  } finally {
    s.close();
    rmSync(spec.data, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Checks that are not timings: exactly-once under each dedup setting, binary inline safety, two inserts at once,
// TTL RECOMPRESS and the compressed size of tj_events.

interface CheckSpec { mode: 'dedup' | 'safety' | 'concurrency' | 'storage'; payloads: string; data: string; columns: string[]; batch: number; dedup?: Dedup; door?: Door; design?: Design }

async function childDedup(spec: CheckSpec): Promise<Record<string, unknown>> {
  const { Session, native } = engine();
  rmSync(spec.data, { recursive: true, force: true });
  const s = new Session(spec.data);
  try {
    for (const st of designStatements(spec.design ?? 'today')) s.query(st);
    const kind = spec.door === 'file-native' ? 'native' : 'json';
    const d = batchDir(spec.payloads, kind, spec.batch);
    const files = batchFiles(d);
    // The batch with the most lock and call events feeds both views.
    const body = readFileSync(join(d, files[Math.floor(files.length / 2)]!));
    const settings = insertSettings(spec.dedup ?? 'token-mv', 'dedup-check-1');
    const cols = spec.columns.join(', ');
    const insert = async (): Promise<void> => {
      if (spec.door === 'file-native') {
        const path = join('/dev/shm', `perfpipe-engine-doors-dedup-${process.pid}.native`);
        writeFileSync(path, body);
        try {
          await native.QueryAsyncConnection(s.connection, `INSERT INTO tj_events (${cols})${settingsClause(settings)} SELECT ${cols} FROM file('${path}', Native)`, 'CSV');
        } finally {
          unlinkSync(path);
        }
      } else {
        await s.insert({ table: 'tj_events', columns: spec.columns, format: 'JSONCompactEachRow', values: body, settings });
      }
    };
    const snapshot = async (): Promise<number[]> => [
      await count(native, s, 'SELECT count() FROM tj_events'),
      await count(native, s, 'SELECT sum(waits) + sum(timeouts) + sum(deadlocks) FROM tj_lock_minute'),
      await count(native, s, 'SELECT sum(n) FROM tj_call_minute'),
    ];
    await insert();
    const once = await snapshot();
    await insert();
    const twice = await snapshot();
    return { once, twice };
  } finally {
    s.close();
    rmSync(spec.data, { recursive: true, force: true });
  }
}

/** Binary inline data through InsertRawAsyncConnection: which leading/trailing/inner bytes survive. */
async function childSafety(spec: CheckSpec): Promise<Record<string, unknown>> {
  const { Session, native } = engine();
  rmSync(spec.data, { recursive: true, force: true });
  const s = new Session(spec.data);
  try {
    s.query('CREATE TABLE t (a UInt8, b String, c UInt8) ENGINE = MergeTree ORDER BY tuple()');
    const rb = (rows: [number, string, number][]): Buffer => Buffer.concat(rows.flatMap(([a, b, c]) => {
      const bytes = Buffer.from(b, 'latin1');
      return [Buffer.from([a, bytes.length]), bytes, Buffer.from([c])];
    }));
    const prefix = 'INSERT INTO t (a, b, c) SETTINGS async_insert = 0 FORMAT RowBinary';
    const cases: [string, string, Buffer, number][] = [
      ['first byte 0x20', prefix, rb([[0x20, 'x', 1]]), 1],
      ['first byte 0x09', prefix, rb([[0x09, 'x', 1]]), 1],
      ['first byte 0x0d', prefix, rb([[0x0d, 'x', 1]]), 1],
      ['first byte 0x0a', prefix, rb([[0x0a, 'x', 1]]), 1],
      ['first byte 0x20, prefix ending in \\n', `${prefix}\n`, rb([[0x20, 'x', 1]]), 1],
      ['first byte 0x0a, prefix ending in \\n', `${prefix}\n`, rb([[0x0a, 'x', 1]]), 1],
      ['last byte 0x0a', prefix, rb([[1, 'x', 0x0a]]), 1],
      ['last byte 0x3b', prefix, rb([[1, 'x', 0x3b]]), 1],
      ['NUL bytes', prefix, rb([[0, '\0\0', 0]]), 1],
      ['"\\n\\n" inside a value', prefix, rb([[1, 'a\n\nb', 2], [3, 'c', 4]]), 2],
      ['"\\n\\n" where row 2 starts, spaces after', prefix, rb([[1, 'x', 1], [10, ' '.repeat(10), 32]]), 2],
      ['"\\n\\n" where row 2 starts, SQL after', prefix, rb([[1, 'x', 1], [10, 'SELECT 1;\n', 10]]), 2],
    ];
    const out: Record<string, string> = {};
    for (const [label, p, body, sent] of cases) {
      s.query('TRUNCATE TABLE t');
      let result: string;
      try {
        await native.InsertRawAsyncConnection(s.connection, p, body, false);
        result = 'ok';
      } catch (e) {
        result = `error ${/Code: \d+/.exec(String((e as Error).message))?.[0] ?? String(e).slice(0, 60)}`;
      }
      const stored = Number(s.query('SELECT count() FROM t', 'TSV').trim());
      const right = Number(s.query('SELECT count() FROM t WHERE length(b) > 0', 'TSV').trim());
      out[label] = `${result}, ${stored} of ${sent} rows stored${stored === sent && right === sent ? '' : stored === 0 ? '' : ' (LOST ROWS)'}`;
    }
    return out;
  } finally {
    s.close();
    rmSync(spec.data, { recursive: true, force: true });
  }
}

/** Two inserts in flight on one connection (and on two connections of one engine) against the same two one after another. */
async function childConcurrency(spec: CheckSpec): Promise<Record<string, unknown>> {
  const { Session } = engine();
  rmSync(spec.data, { recursive: true, force: true });
  const s = new Session(spec.data);
  try {
    for (const st of designStatements('today')) s.query(st);
    const d = batchDir(spec.payloads, 'json', spec.batch);
    const bodies = batchFiles(d).slice(0, 6).map((f) => readFileSync(join(d, f)));
    if (bodies.length < 6) throw new Error(`concurrency check needs 6 batches of ${spec.batch} rows, the input has ${bodies.length}`);
    let token = 0;
    const ins = async (session: ChdbSession, body: Buffer): Promise<[number, number]> => {
      const t = performance.now();
      await session.insert({ table: 'tj_events', columns: spec.columns, format: 'JSONCompactEachRow', values: body, settings: segmentInsertSettings(`c-${token++}`) });
      return [t, performance.now()];
    };
    const measure = async (f: () => Promise<[number, number][]>): Promise<Record<string, number>> => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const spans = await f();
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(c0);
      return { wall_ms: Math.round(wall), cpu_ms: Math.round((cpu.user + cpu.system) / 1000), ...Object.fromEntries(spans.map(([a, b], i) => [`insert${i + 1}_ms`, Math.round(b - a)])) };
    };
    const serial = await measure(async () => [await ins(s, bodies[0]!), await ins(s, bodies[1]!)]);
    const oneConnection = await measure(() => Promise.all([ins(s, bodies[2]!), ins(s, bodies[3]!)]));
    let twoConnections: Record<string, number> | string;
    try {
      const s2 = new Session(spec.data);
      try {
        twoConnections = await measure(() => Promise.all([ins(s, bodies[4]!), ins(s2, bodies[5]!)]));
      } finally {
        s2.close();
      }
    } catch (e) {
      twoConnections = `second connection: ${String((e as Error).message).split('\n')[0]}`;
    }
    return { rows_per_insert: spec.batch, serial, oneConnection, twoConnections };
  } finally {
    s.close();
    rmSync(spec.data, { recursive: true, force: true });
  }
}

/** Compressed size of tj_events under today's codecs, LZ4, and LZ4 + TTL RECOMPRESS CODEC(ZSTD(3)) after OPTIMIZE FINAL. */
async function childStorage(spec: CheckSpec): Promise<Record<string, unknown>> {
  const { Session, native } = engine();
  const out: Record<string, unknown> = {};
  for (const design of ['today', 'lz4'] as const) {
    rmSync(spec.data, { recursive: true, force: true });
    const s = new Session(spec.data);
    try {
      for (const st of designStatements(design)) s.query(st);
      const d = batchDir(spec.payloads, 'json', spec.batch);
      for (const [n, f] of batchFiles(d).entries()) {
        await s.insert({ table: 'tj_events', columns: spec.columns, format: 'JSONCompactEachRow', values: readFileSync(join(d, f)), settings: segmentInsertSettings(`st-${n}`) });
      }
      const size = async (): Promise<Record<string, number>> => (await queryJson<Record<string, number>>(native, s,
        `SELECT count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytes_on_disk, sum(data_compressed_bytes) AS compressed, sum(data_uncompressed_bytes) AS uncompressed
         FROM system.parts WHERE database = currentDatabase() AND table = 'tj_events' AND active`))[0] ?? {};
      const optimize = async (): Promise<number> => {
        const c0 = process.cpuUsage();
        s.query('OPTIMIZE TABLE tj_events FINAL');
        const c = process.cpuUsage(c0);
        return (c.user + c.system) / 1e6;
      };
      out[`${design}: after inserts`] = await size();
      const cpu = await optimize();
      out[`${design}: after OPTIMIZE FINAL`] = { ...(await size()), optimize_cpu_s: Number(cpu.toFixed(2)) };
      if (design === 'today') {
        out['today: biggest columns'] = await queryJson(native, s,
          `SELECT name, data_compressed_bytes AS compressed, data_uncompressed_bytes AS uncompressed FROM system.columns
           WHERE database = currentDatabase() AND table = 'tj_events' ORDER BY data_compressed_bytes DESC LIMIT 6`);
      }
      if (design === 'lz4') {
        out['lz4: biggest columns'] = await queryJson(native, s,
          `SELECT name, data_compressed_bytes AS compressed, data_uncompressed_bytes AS uncompressed FROM system.columns
           WHERE database = currentDatabase() AND table = 'tj_events' ORDER BY data_compressed_bytes DESC LIMIT 6`);
        try {
          s.query(`ALTER TABLE tj_events MODIFY TTL toDateTime(ts) + INTERVAL 1 DAY RECOMPRESS CODEC(ZSTD(3))`);
          out['lz4 + TTL RECOMPRESS: DDL'] = 'accepted';
          const cpu2 = await optimize();
          out['lz4 + TTL RECOMPRESS (expired) after OPTIMIZE FINAL'] = { ...(await size()), optimize_cpu_s: Number(cpu2.toFixed(2)) };
          out['lz4 + TTL RECOMPRESS: part codecs'] = await queryJson(native, s,
            `SELECT default_compression_codec, count() AS parts FROM system.parts WHERE database = currentDatabase() AND table = 'tj_events' AND active GROUP BY 1`);
        } catch (e) {
          out['lz4 + TTL RECOMPRESS: DDL'] = `refused: ${String((e as Error).message).split('\n')[0]}`;
        }
      }
    } finally {
      s.close();
      rmSync(spec.data, { recursive: true, force: true });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The parent: children one after another, figures, a table.

async function child<T>(spec: object): Promise<T> {
  const self = fileURLToPath(import.meta.url);
  const p = spawn(process.execPath, [...process.execArgv, self, '--child', JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  p.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await new Promise<number | null>((resolve) => p.on('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith('@@result '));
  if (code !== 0 || line === undefined) throw new Error(`child ${JSON.stringify(spec).slice(0, 200)} exited ${code}: ${err.slice(-2000)}`);
  return JSON.parse(line.slice('@@result '.length)) as T;
}

export interface EngineDoorsOptions {
  sizeMb?: number;
  repeats?: number;
  /** The whole matrix: every door × batch on today's table, every design and dedup at two doors. */
  full?: boolean;
  doors?: Door[];
  batches?: number[];
  designs?: Design[];
  dedups?: Dedup[];
  checks?: boolean;
  keepPayloads?: boolean;
  /** Wait for background merges after each run and report the CPU including them. */
  settle?: boolean;
  /** A run during which the rest of the machine used more cores than this is run again (up to 3 times). */
  maxForeignCores?: number;
  /** How long to wait for a quiet machine before each run (seconds). */
  quietWaitS?: number;
  onLine?: (line: string) => void;
}

interface Config { door: Door; batch: number; design: Design; dedup: Dedup }

function plan(o: EngineDoorsOptions, seg: number): Config[] {
  const out: Config[] = [];
  const add = (c: Config): void => { if (!out.some((x) => x.door === c.door && x.batch === c.batch && x.design === c.design && x.dedup === c.dedup)) out.push(c); };
  // The reference first: every figure is also given as a ratio to it.
  add({ door: 'json', batch: seg, design: 'today', dedup: 'token-mv' });
  if (!o.full && o.doors === undefined && o.batches === undefined && o.designs === undefined && o.dedups === undefined) {
    // The default: the best door at today's segments, and today's door, the store's door and the best at ten times.
    add({ door: 'file-native', batch: seg, design: 'today', dedup: 'token-mv' });
    for (const door of ['json', 'spool-rowbinary', 'file-native'] as Door[]) add({ door, batch: seg * 10, design: 'today', dedup: 'token-mv' });
    return out;
  }
  const batches = o.batches ?? (o.full ? [seg, seg * 10, seg * 21] : [seg, seg * 10]);
  const doors = o.doors ?? (o.full ? [...DOORS] : ['json', 'spool-rowbinary', 'file-native'] as Door[]);
  for (const batch of batches) for (const door of doors) add({ door, batch, design: 'today', dedup: 'token-mv' });
  const designs = o.designs ?? (o.full ? [...DESIGNS] : [] as Design[]);
  const dedups = o.dedups ?? (o.full ? [...DEDUPS] : [] as Dedup[]);
  const designDoors: Door[] = o.full ? ['json', 'file-native'] : ['file-native'];
  const designBatches = o.full ? batches : [batches[0]!];
  for (const batch of designBatches) {
    for (const door of designDoors) {
      for (const design of designs) add({ door, batch, design, dedup: 'token-mv' });
      // Dedup settings on today's tables and on rollups without a dedup log (as before 043).
      for (const dedup of dedups) for (const design of ['today', 'no-rollup-window'] as Design[]) add({ door, batch, design, dedup });
    }
  }
  return out;
}

const first0 = <T>(xs: T[]): T | undefined => xs[0];
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };

export async function run(options: EngineDoorsOptions = {}): Promise<BenchResult> {
  const log = options.onLine ?? ((l: string) => console.error(l));
  const repeats = options.repeats ?? 2;
  const sizeMb = options.sizeMb ?? 200;
  const root = existsSync('/dev/shm') ? join('/dev/shm', 'perfpipe-engine-doors') : join(benchWorkDir(), 'engine-doors-payloads');
  // The default segment's rows, from the generated bytes per event (as bench/tj-engine-ceiling.ts does).
  const probe = generateTj({ sizeMb });
  const seg = Math.max(1, Math.round(PipelineConfigSchema.parse({}).segment_bytes / (probe.bytes / probe.events)));
  const configs = plan(options, seg);
  const kinds = [...new Set(configs.map((c) => KIND_OF[c.door]).concat(options.checks === false ? [] : ['json', 'native']))];
  const batches = [...new Set(configs.map((c) => c.batch).concat(options.checks === false ? [] : [seg * 10]))];
  const t0 = performance.now();
  const prep = await prepare(sizeMb, batches, kinds, root);
  log(`prepared ${prep.rows} rows, ${prep.columns.length} columns, payloads in ${prep.dir} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  const dataDir = join(benchWorkDir(), 'engine-doors-data');
  const results = new Map<string, RunResult[]>();
  const key = (c: Config): string => `${c.door}|${c.batch}|${c.design}|${c.dedup}`;
  const maxForeign = options.maxForeignCores ?? 0.3;
  let contaminated = 0;
  for (let r = 0; r < repeats; r++) {
    for (const c of configs) {
      const spec: RunSpec = { mode: 'insert', ...c, payloads: prep.dir, data: dataDir, columns: prep.columns, rows: prep.rows, settle: options.settle ?? false };
      let res: RunResult;
      for (let attempt = 1; ; attempt++) {
        // The last run's writes are flushed first, so that no run pays for its predecessor's writeback.
        spawnSync('sync');
        await waitQuiet(options.quietWaitS ?? 60);
        res = await child<RunResult>(spec);
        if (res.foreignCores <= maxForeign || attempt >= 3) break;
        log(`  (rerun: the rest of the machine used ${res.foreignCores.toFixed(2)} cores during it)`);
      }
      if (res.foreignCores > maxForeign) contaminated++;
      const list = results.get(key(c)) ?? [];
      list.push(res);
      results.set(key(c), list);
      log(`run ${r + 1}/${repeats} ${key(c)}: ${res.error ? `ERROR ${res.error}` : `${(res.rowsTimed / res.wallS).toFixed(0)} events/s, ${(res.cpuUserS + res.cpuSysS).toFixed(2)} CPU s, ${res.parts} parts, stored ${res.stored}, others ${res.foreignCores.toFixed(2)} cores`}`);
    }
  }
  const refKey = key({ door: 'json', batch: seg, design: 'today', dedup: 'token-mv' });
  const rate = (rs: RunResult[]): number[] => rs.filter((x) => !x.error && x.rowsTimed > 0).map((x) => x.rowsTimed / x.wallS);
  const settle = options.settle ?? false;
  const ref = results.has(refKey) ? median(rate(results.get(refKey)!)) : NaN;
  const figures: BenchResult['figures'] = [];
  const table: string[][] = [];
  let ok = true;
  const expected = { lock: -1, call: -1 };
  for (const c of configs) {
    const rs = results.get(key(c)) ?? [];
    const good = rs.filter((x) => !x.error && x.rowsTimed > 0);
    const rates = rate(rs);
    const timed = first0(good)?.rowsTimed ?? prep.rows;
    const cpu = good.map((x) => x.cpuUserS + x.cpuSysS);
    const cpuMerged = good.map((x) => x.cpuSettledS);
    const first = good[0];
    const storedOk = good.every((x) => x.stored === x.rowsTimed);
    if (c.design === 'today' && c.dedup === 'token-mv' && first && !UNGUARDED.includes(c.door)) {
      if (expected.lock < 0) { expected.lock = first.lockMinuteRows; expected.call = first.callMinuteN; }
      ok &&= good.every((x) => x.lockMinuteRows === expected.lock && x.callMinuteN === expected.call);
    }
    ok &&= storedOk && (good.length === rs.length || UNGUARDED.includes(c.door));
    const blank = prep.blankLines.get(`${KIND_OF[c.door]}-${c.batch}`);
    const name = `${c.door}, ${c.batch} rows/insert, ${c.design}, ${c.dedup}`;
    if (rates.length > 0) {
      const m = median(rates);
      figures.push({ name, value: m, unit: 'events/s' }, { name: `${name} vs reference`, value: m / ref, unit: '×' },
        { name: `${name} CPU per 1000 rows`, value: (median(cpu) / timed) * 1000, unit: 'CPU s' });
    }
    const unguardedSkipped = UNGUARDED.includes(c.door) && rs.length > 0 && good.length === 0 && !rs.some((x) => x.error);
    table.push([
      c.door, String(c.batch), c.design, c.dedup,
      rates.length ? median(rates).toFixed(0) : unguardedSkipped ? 'n/a' : 'failed', rates.length ? Math.min(...rates).toFixed(0) : '-',
      rates.length ? (median(rates) / ref).toFixed(2) : '-',
      cpu.length ? median(cpu).toFixed(2) : '-', cpu.length ? Math.min(...cpu).toFixed(2) : '-', cpu.length ? ((median(cpu) / timed) * 1000).toFixed(4) : '-',
      ...(settle ? [cpuMerged.length ? median(cpuMerged).toFixed(2) : '-'] : []),
      first ? String(first.parts) : '-',
      first ? `${first.inlineBatches}/${blank?.of ?? '?'}` : unguardedSkipped ? `0/${blank?.of ?? '?'}` : '-',
      timed === prep.rows ? String(timed) : `${timed} (subset)`,
      good.length ? Math.max(...good.map((x) => x.foreignCores)).toFixed(2) : '-',
      storedOk ? 'yes' : `NO (${rs.map((x) => x.stored).join('/')})`,
      rs.find((x) => x.error)?.error?.slice(0, 80) ?? (unguardedSkipped ? 'every batch holds \\n\\n' : ''),
    ]);
  }
  log(formatTable(['door', 'rows/insert', 'design', 'dedup', 'events/s med', 'min', '× ref', 'CPU s med', 'CPU min', 'CPU s/1k rows',
    ...(settle ? ['CPU s +merges'] : []), 'parts', 'inline', 'rows timed', 'others', 'stored', 'error'], table));
  const notes: string[] = [
    `reference: json (JSONCompactEachRow through chdb rawInsert), ${seg} rows per insert, today's table, segmentInsertSettings = ${ref.toFixed(0)} events/s (median of ${repeats})`,
    `rows ${prep.rows}; ${repeats} runs per configuration, each in a fresh child process and data directory; CPU = process.cpuUsage of the child (all engine threads) over the insert loop`,
    `${contaminated} runs kept although the rest of the machine used more than ${maxForeign} cores during them (column "others")`,
  ];
  for (const [k, v] of prep.blankLines) if (k.startsWith('rowbinary') || k.startsWith('native')) notes.push(`${k}: ${v.hit} of ${v.of} batches hold "\\n\\n" (inline data would be cut there)`);
  if (options.checks !== false) {
    const dedup: Record<string, unknown> = {};
    for (const design of ['today', 'no-rollup-window'] as Design[]) {
      for (const door of (options.full ? ['json', 'file-native'] : ['json']) as Door[]) {
        for (const d of (options.full ? DEDUPS : ['token-mv', 'token'] as const)) {
          dedup[`${design} ${door} ${d}`] = await child({ mode: 'dedup', payloads: prep.dir, data: dataDir, columns: prep.columns, batch: seg * 10, dedup: d, door, design });
        }
      }
    }
    log(`dedup (tj_events rows, lock rollup sum, call rollup sum) after the batch once → twice with the same token:`);
    for (const [k, v] of Object.entries(dedup)) {
      const { once, twice } = v as { once: number[]; twice: number[] };
      const verdict = once.map((x, i) => (twice[i] === x ? 'once' : twice[i] === 2 * x ? 'TWICE' : `? ${twice[i]}`));
      log(`  ${k.padEnd(32)} ${JSON.stringify(once)} → ${JSON.stringify(twice)}  main ${verdict[0]}, lock view ${verdict[1]}, call view ${verdict[2]}`);
      notes.push(`dedup ${k}: ${JSON.stringify(once)} → ${JSON.stringify(twice)} (main ${verdict[0]}, lock view ${verdict[1]}, call view ${verdict[2]})`);
    }
    const safety = await child<Record<string, string>>({ mode: 'safety', payloads: prep.dir, data: dataDir, columns: prep.columns, batch: seg });
    log('binary inline safety (RowBinary through InsertRawAsyncConnection):');
    for (const [k, v] of Object.entries(safety)) { log(`  ${k.padEnd(44)} ${v}`); notes.push(`inline binary, ${k}: ${v}`); }
    // Six batches of the default segment's rows (the store's unit): ten times as many would need ~500 MB of input.
    const conc = await child<Record<string, unknown>>({ mode: 'concurrency', payloads: prep.dir, data: dataDir, columns: prep.columns, batch: seg });
    log(`concurrency: ${JSON.stringify(conc)}`);
    notes.push(`concurrency: ${JSON.stringify(conc)}`);
    const storage = await child<Record<string, unknown>>({ mode: 'storage', payloads: prep.dir, data: dataDir, columns: prep.columns, batch: seg * 10 });
    for (const [k, v] of Object.entries(storage)) { log(`storage ${k}: ${JSON.stringify(v)}`); notes.push(`storage ${k}: ${JSON.stringify(v)}`); }
  }
  if (!options.keepPayloads) {
    rmSync(prep.dir, { recursive: true, force: true });
    if (readdirSync(root).length === 0) rmSync(root, { recursive: true, force: true });
  }
  return { bench: 'engine-doors', input: { bytes: prep.input.bytes, events: prep.rows, files: prep.input.files.length }, figures, ok, notes };
}

async function childMain(spec: (RunSpec | CheckSpec) & { mode: string }): Promise<void> {
  const result = spec.mode === 'insert' ? await childInsert(spec as RunSpec)
    : spec.mode === 'dedup' ? await childDedup(spec as CheckSpec)
      : spec.mode === 'safety' ? await childSafety(spec as CheckSpec)
        : spec.mode === 'concurrency' ? await childConcurrency(spec as CheckSpec)
          : await childStorage(spec as CheckSpec);
  process.stdout.write(`@@result ${JSON.stringify(result)}\n`);
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' }, 'size-mb': { type: 'string' }, repeats: { type: 'string' }, full: { type: 'boolean' },
      doors: { type: 'string' }, batches: { type: 'string' }, designs: { type: 'string' }, dedups: { type: 'string' },
      'no-checks': { type: 'boolean' }, 'keep-payloads': { type: 'boolean' }, settle: { type: 'boolean' },
      'max-foreign': { type: 'string' }, 'quiet-wait': { type: 'string' },
    },
  });
  if (values.child !== undefined) {
    await childMain(JSON.parse(values.child));
    process.exit(0);
  }
  const list = <T extends string>(v: string | undefined, all: readonly T[]): T[] | undefined => {
    if (v === undefined) return undefined;
    const xs = v.split(',') as T[];
    for (const x of xs) if (!all.includes(x)) throw new Error(`unknown ${x}; one of ${all.join(', ')}`);
    return xs;
  };
  const r = await run({
    sizeMb: Number(values['size-mb'] ?? 200),
    repeats: Number(values.repeats ?? 2),
    full: values.full ?? false,
    doors: list(values.doors, DOORS),
    batches: values.batches?.split(',').map(Number),
    designs: list(values.designs, DESIGNS),
    dedups: list(values.dedups, DEDUPS),
    checks: !values['no-checks'],
    keepPayloads: values['keep-payloads'] ?? false,
    settle: values.settle ?? false,
    ...(values['max-foreign'] === undefined ? {} : { maxForeignCores: Number(values['max-foreign']) }),
    ...(values['quiet-wait'] === undefined ? {} : { quietWaitS: Number(values['quiet-wait']) }),
    onLine: (l) => console.log(l),
  });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], r.figures.map((f) => [r.bench, f.name, f.value >= 100 ? f.value.toFixed(0) : f.value.toFixed(3), f.unit])));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
  console.log(`ok: ${r.ok}`);
}
