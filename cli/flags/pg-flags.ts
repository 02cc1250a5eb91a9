// `--pg DIR --pg-prefix '…' --pg-format stderr|csvlog|jsonlog [--pg-filename PATTERN]`: PostgreSQL log sources from
// flags, and `--apdex DIR` export directories, shared by `ingest`, `run` and `agent`. Values are checked by the source's zod schema (ingest/config/config.ts).
import type { ConfigInput } from '../../ingest/config/config.js';

export const PG_OPTIONS = {
  pg: { type: 'string', multiple: true },
  'pg-prefix': { type: 'string' },
  'pg-format': { type: 'string' },
  'pg-filename': { type: 'string' },
  apdex: { type: 'string', multiple: true },
  /** A PostgreSQL server to sample live (`run`, `agent`): `postgresql://user@host:port/db`, password from PGPASSWORD or ~/.pgpass. */
  'pg-activity': { type: 'string', multiple: true },
} as const;

type SourceInput = NonNullable<ConfigInput['sources']>[number];

export interface PgFlagValues {
  pg?: string[];
  'pg-prefix'?: string;
  'pg-format'?: string;
  'pg-filename'?: string;
  'pg-activity'?: string[];
}

/** One `type: pg` source per `--pg DIR`, with the prefix/format/filename flags applied to each; one `pg_activity` per `--pg-activity URL`. */
export function pgSourcesFromFlags(values: PgFlagValues): SourceInput[] {
  const activity = (values['pg-activity'] ?? []).map((connection) => ({ type: 'pg_activity' as const, connection }));
  return [...activity, ...(values.pg ?? []).map((location) => ({
    type: 'pg' as const, location,
    ...(values['pg-prefix'] !== undefined ? { prefix: values['pg-prefix'] } : {}),
    // An unknown format is left for the schema to reject with its path and the expected values.
    ...(values['pg-format'] !== undefined ? { format: values['pg-format'] as 'stderr' } : {}),
    ...(values['pg-filename'] !== undefined ? { filename: values['pg-filename'] } : {}),
  }))];
}

/** One `type: apdex` source per `--apdex DIR` (the SSL performance-evaluation export directory), defaults from its schema. */
export function apdexSourcesFromFlags(values: { apdex?: string[] }): SourceInput[] {
  return (values.apdex ?? []).map((location) => ({ type: 'apdex' as const, location }));
}

/**
 * `--tz` applies to TJ and PostgreSQL sources, not to APDEX exports (their times are UTC by name); `--hour` only to
 * TJ sources (PostgreSQL lines carry their date).
 */
export function applyTimeFlags(sources: SourceInput[], tz: string | undefined, hour: string | undefined): void {
  for (const s of sources) {
    if (tz && (s.type === 'tj' || s.type === 'pg')) s.tz = tz;
    if (hour && s.type === 'tj') s.hour = hour;
  }
}
