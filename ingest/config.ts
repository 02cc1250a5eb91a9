// The perfpipe configuration file (YAML or JSON), validated by zod. Components own their schemas; this
// file only composes them (STYLE §4). Every key: unit and default in its doc comment.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { TjSourceConfigSchema } from './source/tj-source-config.js';
import { PgSourceConfigSchema } from './source/pg-source-config.js';
import { ApdexSourceConfigSchema } from './source/apdex-source-config.js';
import { AtopSourceConfigSchema } from './source/atop-source-config.js';
import { KafkaBusConfigSchema } from './bus/kafka-config.js';
import { MemoryBusConfigSchema } from './bus/memory-bus.js';
import { ConfigError } from './errors.js';
import { AlertConfigSchema } from './alert/config.js';

const Listen = z.string().regex(/^[\w.:[\]-]+:\d{1,5}$/, { error: 'expected host:port, e.g. "127.0.0.1:9650"' });

export const PipelineConfigSchema = z.strictObject({
  /**
   * Cut a segment (one ClickHouse insert per table) once it holds this many bytes of a file. Default 2 MiB:
   * peak RSS of `ingest` grew with it (120 MB TJ file: 0.74 GB at 1 MiB, 0.97 GB at 2 MiB, 1.7 GB at 8 MiB).
   */
  segment_bytes: z.number().int().min(4096).default(2 * 1024 * 1024),
  /** How often files are re-listed and re-read without a change notification, in ms. Default 1000. */
  poll_interval_ms: z.number().int().min(50).default(1000),
  /** Segments of one file published and not yet acknowledged, at most. Default 2. */
  max_in_flight_per_file: z.number().int().positive().default(2),
  /** Bytes read from a file per read call. Default 1 MiB. */
  read_chunk_bytes: z.number().int().min(4096).default(1024 * 1024),
  /** Files read at once by `ingest`. Default 2. */
  backfill_concurrency: z.number().int().positive().default(2),
});

export const ConfigSchema = z.strictObject({
  /** Host name stamped on every record. Default: this machine's hostname. */
  host: z.string().min(1).default(() => hostname()),
  /** Data directory: embedded ClickHouse (`clickhouse/`), checkpoints, daemon state. Default `./perfpipe-data`. */
  data: z.string().min(1).default('perfpipe-data'),
  /** A ClickHouse server URL (`http://host:8123/db`); unset = the embedded engine in `data`. Credentials: PERFPIPE_CLICKHOUSE_USER / PERFPIPE_CLICKHOUSE_PASSWORD. */
  clickhouse: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL, e.g. "http://127.0.0.1:8123"' }).nullable().default(null),
  /** Where `run` answers /health, /ready, /metrics and /sql. Default `127.0.0.1:9650`; `agent` and `sink` default to 9651 and 9652 when the file does not set it. */
  listen: Listen.default('127.0.0.1:9650'),
  /** What to read: `tj` (technological journal), `pg` (PostgreSQL log directory), `apdex` (SSL performance-evaluation export directory), `atop` (atop -P text file or directory). Default none. */
  sources: z.array(z.discriminatedUnion('type', [TjSourceConfigSchema, PgSourceConfigSchema, ApdexSourceConfigSchema, AtopSourceConfigSchema])).default([]),
  /** `memory`: the embedded default, in-process. `kafka`: what `agent` and `sink` need; `run` then runs both in one process. Default memory. */
  bus: z.discriminatedUnion('type', [
    MemoryBusConfigSchema.extend({ type: z.literal('memory') }),
    KafkaBusConfigSchema.extend({ type: z.literal('kafka') }),
  ]).default({ type: 'memory', max_in_flight: 4 }),
  /** Alerts on lock timeouts, deadlocks and lock errors, evaluated on the event stream by `run` and `sink` (ingest/alert/config.ts). */
  alerts: AlertConfigSchema.prefault({}),
  pipeline: PipelineConfigSchema.default(PipelineConfigSchema.parse({})),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** Formats zod issues as `path: message` lines, all at once (STYLE §4). */
export function describeIssues(error: z.ZodError, input: unknown): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');
    const where = path || '(top level)';
    const found = valueAt(input, issue.path);
    if (issue.code === 'unrecognized_keys') {
      return `${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    }
    if (issue.code === 'invalid_type') {
      const expected = `expected ${issue.expected === 'object' ? 'a mapping' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
      return found === undefined ? `${where}: is required; ${expected}` : `${where}: ${JSON.stringify(found)} is not valid; ${expected}`;
    }
    if (issue.code === 'invalid_union' && /discriminator/i.test(issue.message)) {
      const options = /Expected (.*)$/.exec(issue.message)?.[1]?.split(' | ').map((o) => o.replaceAll("'", '"')).join(', ');
      return `${where}: ${JSON.stringify(found)} is not known; expected one of ${options}`;
    }
    return `${where}: ${issue.message}`;
  });
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v: unknown = input;
  for (const k of path) v = v === null || typeof v !== 'object' ? undefined : (v as Record<PropertyKey, unknown>)[k];
  return v;
}

export function parseConfig(input: unknown, origin = 'config'): Config {
  const r = ConfigSchema.safeParse(input ?? {});
  if (!r.success) throw new ConfigError(`${origin} is not valid:\n  ${describeIssues(r.error, input).join('\n  ')}`);
  return r.data;
}

export function loadConfigFile(path: string): Config {
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
  return parseConfig(input, path);
}
