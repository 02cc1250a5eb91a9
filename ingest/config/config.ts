// The perfpipe configuration file (YAML or JSON), validated by zod. Components own their schemas; this
// file only composes them (docs/style.md §4). Every key: unit and default in its doc comment.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { FAMILIES } from '../families/registry.js';
import type { Families } from '../families/family-registry.js';
import { KafkaBusConfigSchema } from '../bus/kafka-config.js';
import { MemoryBusConfigSchema } from '../bus/memory-bus.js';
import { ConfigError } from '../errors/errors.js';
import { describeIssues } from '../errors/config-issues.js';
import { AlertConfigSchema } from '../alert/config.js';
import { ApdexConfigSchema } from '../apdex/config.js';
import { ServeConfigSchema } from './serve-config.js';

const Listen = z.string().regex(/^[\w.:[\]-]+:\d{1,5}$/, { error: 'expected host:port, e.g. "127.0.0.1:9650"' });

export const PipelineConfigSchema = z.strictObject({
  /**
   * Cut a segment (one ClickHouse insert per table) once it holds this many bytes of a file. Default 8 MiB (about
   * 9,000 TJ events): the engine's cost is mostly per insert (bench/engine-doors.ts: 3-6× the events/s at ten
   * times the rows), while peak RSS grows with the segment (200 MB TJ ingest: ~445 MiB at 2 MiB, ~480 at 8 MiB,
   * ~640 at 16 MiB, docs/write-path.md).
   */
  segment_bytes: z.number().int().min(4096).default(8 * 1024 * 1024),
  /**
   * A segment that has not reached segment_bytes when its file has no more to read waits this long, in ms, from
   * its first byte for more lines before it is cut: a file written a little at a time (10,000 TJ events/s in
   * 100 ms bursts) then makes a few inserts per second instead of one per write, and the sink keeps up with
   * them (bench/kafka-e2e.ts). It adds at most this much to the time an event takes to be visible. Default 200.
   */
  segment_delay_ms: z.number().int().nonnegative().default(200),
  /** How often files are re-listed and re-read without a change notification, in ms. Default 1000. */
  poll_interval_ms: z.number().int().min(50).default(1000),
  /**
   * Segments of one file published and not yet acknowledged, at most. Default 1: the next segment is parsed while
   * the last one is inserted, and a second in flight only held another segment in memory (no faster).
   */
  max_in_flight_per_file: z.number().int().positive().default(1),
  /** Bytes read from a file per read call. Default 1 MiB. */
  read_chunk_bytes: z.number().int().min(4096).default(1024 * 1024),
  /** Files read at once by `ingest`. Default 2. */
  backfill_concurrency: z.number().int().positive().default(2),
  /**
   * Bytes read from files and not yet stored, at most, over every file of every source (a segment starts reading
   * only when it fits; ingest/source/read-ahead.ts). Default twice segment_bytes: one segment inserted while the next
   * is gathered, whether one file is read or thirty are followed (docs/write-path.md §7).
   */
  read_ahead_bytes: z.number().int().min(4096).optional(),
  /**
   * Bytes one record (a TJ event with all its lines, or a run of unreadable bytes) may hold before it ends;
   * a longer one is dropped as an `event_too_large` ingest error and reading resumes at the next record.
   * Default 32 MiB: the largest TJ events seen (SQL texts with long IN lists) are a few MiB, and the parser
   * holds about three copies of an event while decoding it.
   */
  max_event_bytes: z.number().int().min(4096, { error: (i) => `${String(i.input)} is below 4096; expected bytes, e.g. 33554432 (32 MiB)` }).default(32 * 1024 * 1024),
  /**
   * Bytes one line may hold before its line feed; a record with a longer line is dropped as a
   * `line_too_long` ingest error. Default 8 MiB. It bounds what binary garbage without line feeds costs.
   */
  max_line_bytes: z.number().int().min(1024, { error: (i) => `${String(i.input)} is below 1024; expected bytes, e.g. 8388608 (8 MiB)` }).default(8 * 1024 * 1024),
  /**
   * Files one source keeps open at once. Past it, files read to their end are closed and opened again
   * when they grow; the rest wait for the next scan (counted in `perfpipe_open_files_limited_total`). Default 512.
   */
  max_open_files: z.number().int().min(1, { error: (i) => `${String(i.input)} is below 1; expected a number of files, e.g. 512` }).default(512),
  /**
   * A file renamed away (logrotate `create`) or deleted is read until it has not grown for this long, in ms:
   * the writer may hold it open a moment longer. Default 5000, as Fluent Bit's `Rotate_Wait`.
   */
  rotate_wait_ms: z.number().int().nonnegative({ error: (i) => `${String(i.input)} is negative; expected milliseconds, e.g. 5000` }).default(5000),
});

/**
 * The configuration of a perfpipe built with `families`: the `sources[]` types and the `retention:` keys are theirs
 * (ingest/families/registry.ts).
 */
export function configSchema(families: Families) {
  return z.strictObject({
    /** Host name stamped on every record. Default: this machine's hostname. */
    host: z.string().min(1).default(() => hostname()),
    /** Data directory: embedded ClickHouse (`clickhouse/`), checkpoints, daemon state. Default `./perfpipe-data`. */
    data: z.string().min(1).default('perfpipe-data'),
    /**
     * A ClickHouse server URL (`http://host:8123/db`, or `http://user@host:8123/db` to name the user); unset = the
     * embedded engine in `data`. The password only from PERFPIPE_CLICKHOUSE_PASSWORD, the user from the URL or
     * PERFPIPE_CLICKHOUSE_USER.
     */
    clickhouse: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL, e.g. "http://127.0.0.1:8123"' })
      .refine(hasNoPassword, { error: 'holds a password; put it in PERFPIPE_CLICKHOUSE_PASSWORD instead (the URL is logged and kept in files)' })
      .nullable().default(null),
    /**
     * The ClickHouse cluster that `clickhouse` is a node of (docs/deploy.md §3): `sink` and `run` then apply the
     * cluster DDL at start-up (what `perfpipe migrate --cluster` applies, resumed where it stopped) instead of one
     * server's, and set the retention TTLs on the local tables ON CLUSTER. Default none: one server, or the embedded engine.
     */
    clickhouse_cluster: z.strictObject({
      /** The cluster's name in the servers' `remote_servers`. */
      name: z.string().regex(/^[A-Za-z_][\w-]*$/, { error: 'expected the name of a cluster in remote_servers (letters, digits, _ and -)' }),
      /** Replicated* local tables, on Keeper. Default true. */
      replicated: z.boolean().default(true),
    }).nullable().default(null),
    /** Where `run` answers /health, /ready, /metrics and /sql. Default `127.0.0.1:9650`; `agent` and `sink` default to 9651 and 9652 when the file does not set it. */
    listen: Listen.default('127.0.0.1:9650'),
    /** What to read: `tj` (technological journal), `pg` (PostgreSQL log directory), `apdex` (SSL performance-evaluation export directory), `atop` (atop -P text file or directory), `atop_raw` (atop -w raw logs, replayed with atop -r), `atop_spawn` (atop run by perfpipe), `pg_activity` (a live PostgreSQL server's pg_stat_activity, sampled). Default none. */
    sources: z.array(families.sourceSchema as typeof FAMILIES.sourceSchema).default([]),
    /** `memory`: the embedded default, in-process. `kafka`: what `agent` and `sink` need; `run` then runs both in one process. Default memory. */
    bus: z.discriminatedUnion('type', [
      MemoryBusConfigSchema.extend({ type: z.literal('memory') }),
      KafkaBusConfigSchema.extend({ type: z.literal('kafka') }),
    ]).default({ type: 'memory', max_in_flight: 4 }),
    /** Alerts on lock timeouts, deadlocks and lock errors, evaluated on the event stream by `run` and `sink` (ingest/alert/config.ts). */
    alerts: AlertConfigSchema.prefault({}),
    /** Key operations for `report apdex --config`: TJ CALL rules and overrides of the export's settings (ingest/apdex/config.ts). Default none. */
    apdex: ApdexConfigSchema.prefault({}),
    pipeline: PipelineConfigSchema.default(PipelineConfigSchema.parse({})),
    /** Days each table family keeps its rows, applied as table TTLs at start-up (ingest/store/retention.ts). */
    retention: families.retentionSchema.prefault({}),
    /** ClickHouse's HTTP interface on the embedded store, for analysts' tools (./serve-config.ts); unset = not served. */
    serve: ServeConfigSchema.nullable().default(null),
  }).superRefine((c, ctx) => {
    checkPaths(c, ctx, families);
    if (c.clickhouse_cluster !== null && c.clickhouse === null) {
      ctx.addIssue({ code: 'custom', path: ['clickhouse_cluster'], message: 'names a cluster, but no clickhouse URL is set; give the URL of one of its nodes' });
    }
  });
}

export const ConfigSchema = configSchema(FAMILIES);
export type Config = z.infer<typeof ConfigSchema>;

/** A user name in the URL is no secret (`http://writer@host:8123`); a password is. */
function hasNoPassword(url: string): boolean {
  if (!URL.canParse(url)) return true; // reported by the URL check already
  return new URL(url).password === '';
}

/**
 * Paths are handed to the file system and printed in log lines: a NUL or a line break in one is a mistake
 * (or an attempt to forge a log line). A source inside the data directory would read perfpipe's own files.
 */
function checkPaths(c: { data: string; sources: Array<{ type: string; location: string }> }, ctx: z.core.$RefinementCtx, families: Families): void {
  const bad = /[\0\r\n]/;
  const expected = 'holds a NUL byte or a line break; expected a file system path';
  if (bad.test(c.data)) ctx.addIssue({ code: 'custom', path: ['data'], message: expected });
  const data = resolve(c.data);
  c.sources.forEach((s, i) => {
    if (families.kind(s.type)?.kind.locationIsPath === false) return; // a server's URL, not a path
    if (bad.test(s.location)) { ctx.addIssue({ code: 'custom', path: ['sources', i, 'location'], message: expected }); return; }
    const loc = resolve(s.location);
    if (loc === data || loc.startsWith(`${data}${sep}`)) {
      ctx.addIssue({ code: 'custom', path: ['sources', i, 'location'], message: `${JSON.stringify(s.location)} is inside the data directory ${JSON.stringify(c.data)}; perfpipe would read its own files` });
    }
  });
}
export type ConfigInput = z.input<typeof ConfigSchema>;

/**
 * `families` other than the built-in ones (a test's, docs/adding-a-family.md §6) add source types and retention keys;
 * the result is typed as the built-in config, and the entries of the added types reach code only through their family.
 */
export function parseConfig(input: unknown, origin = 'config', families: Families = FAMILIES): Config {
  const schema = families === FAMILIES ? ConfigSchema : configSchema(families);
  const r = schema.safeParse(input ?? {}) as z.ZodSafeParseResult<Config>;
  if (!r.success) throw new ConfigError(`${origin} is not valid:\n  ${describeIssues(r.error, input).join('\n  ')}`);
  return r.data;
}

export function loadConfigFile(path: string): Config {
  return parseConfig(readConfigInput(path), path);
}

/**
 * The file's keys as written, checked: what flags are merged into before the one parse. Not the parsed config,
 * whose transforms add keys a strict schema refuses on a second parse (a pg_activity source's `location`).
 */
export function loadConfigInput(path: string): ConfigInput {
  const input = readConfigInput(path);
  parseConfig(input, path);
  return input as ConfigInput;
}

function readConfigInput(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  let input: unknown;
  try {
    input = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${path} is not valid YAML/JSON: ${(error as Error).message}`);
  }
  return input;
}
