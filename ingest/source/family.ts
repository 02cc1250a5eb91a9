// One data family in one object (docs/adding-a-family.md): the records its parsers emit, the tables their rows go to
// and the builder that writes those rows, its bus topic, how long its rows are kept, and its ways in (the config's
// source types) with what "nothing to read" says of each. Each family's folder exports one, and
// ingest/families/registry.ts lists them: every list perfpipe keeps of the families is derived from that one list.
import type { z } from 'zod';
import type { TableLayout } from '../../schemas/columns.js';
import type { RowBuilder } from '../rows/row-builder.js';
import type { Source } from './source.js';
import type { SourceContext } from './source-context.js';

/** What every `sources[]` entry holds, whatever its type. */
export interface SourceEntry {
  type: string;
  /** Where it reads: a path for the sources that read files; the program or the server for the others. */
  location: string;
}

/** A family's source module, loaded only when a source of its type is configured (a TJ-only agent loads no XML reader). */
export interface SourceModule<C> {
  createSource(s: C, ctx: SourceContext): Source;
  /** The files the source would read now, listed as its own discovery lists them (what "nothing to read" checks). */
  listFiles?(s: C): Promise<string[]>;
}

/** One way into a family: a type of the config's `sources[]`. */
export interface SourceKind<S extends z.ZodType<SourceEntry> = z.ZodType<SourceEntry>> {
  /** The entry's schema: a strict object, `type: z.literal(…)` first, then its settings with their defaults. */
  schema: S;
  /** Its module, e.g. `() => import('./perfmon-source.js')`. */
  load(): Promise<SourceModule<z.output<S>>>;
  /**
   * What "nothing to read" says of a location that holds files none of which the source reads (`seen`: "it holds a,
   * b and 3 more"), by the module's `listFiles`. Absent for a source that finds its own input (a program, a server).
   */
  unmatched?(s: z.output<S>, seen: string): string;
  /** False when `location` is not a path (a server's URL): it is then not checked against the data directory. */
  locationIsPath?: false;
}

/** How long a family's rows are kept (ingest/store/retention.ts). */
export interface FamilyRetention {
  /** Its key in the config's `retention:` (days after ingestion; 0 keeps rows for ever), e.g. `perfmon_days`. */
  key: string;
  /** The key's default. */
  days: number;
  /** What the key keeps, a line of the config's documentation. */
  about: string;
  /** The tables the key keeps; default every table of the family. */
  tables?: readonly string[];
  /** Text recompressed to ZSTD after `retention.recompress_after_days` (tables whose DDL leaves it in LZ4). */
  recompress?: true;
  /** Per-minute rollups fed by its tables (materialized views in its DDL), kept by `retention.rollup_days`. */
  rollups?: readonly string[];
  /** Narrow copies of its rows its materialized views write (lookup tables, e.g. the lock facts): kept by its key, not recompressed. */
  derived?: readonly string[];
}

export interface FamilyDescriptor<K extends readonly SourceKind<any>[] = readonly SourceKind<any>[]> {
  /** Its name: the `family` of its segments and its Kafka topic (`<topic_prefix><family>`). */
  family: string;
  /**
   * What its parsers emit. Segments of agents older than row encoding carry these instead of rows, and the sink
   * checks them against it before it builds their rows (ingest/sink/segment-validation.ts).
   */
  events: z.ZodType;
  /** The tables it inserts into (a DDL migration in queries/ddl/ creates each). */
  tables: readonly TableLayout[];
  /** Records → the encoded rows of those tables: one builder per file read, or per message to map. */
  rows(): RowBuilder;
  retention: FamilyRetention;
  /** Its ways in. */
  sources: K;
}

/** A descriptor, its source types kept exact (the config's types are derived from them). */
export function defineFamily<const K extends readonly SourceKind<any>[]>(descriptor: FamilyDescriptor<K>): FamilyDescriptor<K> {
  return descriptor;
}

/** A way in, its entry's type inferred from its schema (so `unmatched` and the module are checked against it). */
export function sourceKind<S extends z.ZodType<SourceEntry>>(kind: SourceKind<S>): SourceKind<S> {
  return kind;
}

/** What "nothing to read" says for the sources that take a name `pattern` (apdex, atop). */
export function noFileMatches(pattern: string, seen: string): string {
  return `no file matches the pattern ${JSON.stringify(pattern)}; ${seen}. `
    + 'Give the file itself as the location, or its name pattern (pattern: in the config)';
}
