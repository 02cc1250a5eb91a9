// `--pg DIR --pg-prefix '…' --pg-format stderr|csvlog|jsonlog [--pg-filename PATTERN]`: PostgreSQL log sources from
// flags, shared by `ingest`, `run` and `agent`. Values are checked by the source's zod schema (ingest/config.ts).
import type { ConfigInput } from '../config.js';

export const PG_OPTIONS = {
  pg: { type: 'string', multiple: true },
  'pg-prefix': { type: 'string' },
  'pg-format': { type: 'string' },
  'pg-filename': { type: 'string' },
} as const;

type SourceInput = NonNullable<ConfigInput['sources']>[number];

interface PgFlagValues {
  pg?: string[];
  'pg-prefix'?: string;
  'pg-format'?: string;
  'pg-filename'?: string;
}

/** One `type: pg` source per `--pg DIR`, with the prefix/format/filename flags applied to each. */
export function pgSourcesFromFlags(values: PgFlagValues): SourceInput[] {
  return (values.pg ?? []).map((location) => ({
    type: 'pg' as const, location,
    ...(values['pg-prefix'] !== undefined ? { prefix: values['pg-prefix'] } : {}),
    // An unknown format is left for the schema to reject with its path and the expected values.
    ...(values['pg-format'] !== undefined ? { format: values['pg-format'] as 'stderr' } : {}),
    ...(values['pg-filename'] !== undefined ? { filename: values['pg-filename'] } : {}),
  }));
}

/** `--tz` applies to every source, `--hour` only to TJ sources (PostgreSQL lines carry their date). */
export function applyTimeFlags(sources: SourceInput[], tz: string | undefined, hour: string | undefined): void {
  for (const s of sources) {
    if (tz) s.tz = tz;
    if (hour && s.type === 'tj') s.hour = hour;
  }
}
