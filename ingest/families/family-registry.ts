// Every list perfpipe keeps of its data families, derived from one list of descriptors (ingest/source/family.ts):
// the families' names (segments, Kafka topics), the tables they insert into and their layouts, the config's source
// types and retention keys, each source type's module, and each family's row builder and event schema. What is
// derived is checked once here: a name, a source type, a table or a retention key given twice is refused.
import { z } from 'zod';
import type { TableLayout } from '../../schemas/columns.js';
import { INGEST_ERRORS } from '../../schemas/ingest-error.js';
import type { TableRows } from '../bus/bus.js';
import { buildRows } from '../rows/row-builder.js';
import type { FamilyDescriptor, SourceEntry, SourceKind } from '../source/family.js';
import type { Source } from '../source/source.js';
import type { PipelineContext } from '../source/source-context.js';
import { type RetentionConfig, type RetentionConfigInput, retentionConfigSchema, type RetentionTable } from '../store/retention.js';

type EntrySchema = z.ZodType<SourceEntry>;

/** The union of a descriptor list's entry schemas: what the config's `sources[]` types are derived from. */
export type SchemaOf<D> = D extends FamilyDescriptor<infer K> ? K[number]['schema'] : never;

export interface Families<S extends EntrySchema = EntrySchema> {
  readonly list: readonly FamilyDescriptor[];
  /** Family names: every segment's `family`, one Kafka topic each. */
  readonly names: readonly string[];
  family(name: string): FamilyDescriptor | undefined;
  /** The way in of a `sources[]` type, and its family. */
  kind(type: string): { family: FamilyDescriptor; kind: SourceKind } | undefined;
  /** Every table perfpipe inserts into: each family's, and ingest_errors. */
  readonly layouts: readonly TableLayout[];
  /** The layout rows were written in, or undefined for one this version does not know (a newer agent's). */
  layout(id: string): TableLayout | undefined;
  /** One `sources[]` entry, a schema per type. */
  readonly sourceSchema: z.ZodType<z.output<S>, z.input<S>>;
  /** The config's `retention:`, each family's key among them. */
  readonly retentionSchema: z.ZodType<RetentionConfig, RetentionConfigInput>;
  /** The families' tables and rollups that expire, each with the retention key that sets it. */
  readonly retentionTables: readonly RetentionTable[];
  /**
   * These families and `more`, checked as one list: how a test (or a build of perfpipe with a family of its own)
   * adds a family without touching the built-in list (docs/adding-a-family.md §6).
   */
  with<const D extends readonly FamilyDescriptor<any>[]>(...more: D): Families<S | SchemaOf<D[number]>>;
  /** The source of one config entry: its family's module loaded on first use, given the family's name and rows. */
  createSource(s: SourceEntry, ctx: PipelineContext): Promise<Source>;
  /** The rows of a whole list of a family's records (old agents' messages, tests). */
  rowsOf(family: string, records: readonly unknown[]): { records: number; tables: TableRows[] };
}

/** The registry of `list`; throws at start-up on a name, source type, table or retention key given twice. */
export function familyRegistry<const D extends readonly FamilyDescriptor<any>[]>(list: D): Families<SchemaOf<D[number]>> {
  const byName = uniqueMap('family', list.map((d) => [d.family, d] as const));
  const kinds = uniqueMap<{ family: FamilyDescriptor; kind: SourceKind }>('source type',
    list.flatMap((d) => d.sources.map((k: SourceKind) => [typeName(k), { family: d, kind: k }] as const)));
  const layouts = [...list.flatMap((d) => d.tables), INGEST_ERRORS];
  uniqueMap('table', layouts.map((l) => [l.table, l] as const));
  const byId = new Map(layouts.map((l) => [l.id, l]));
  uniqueMap('retention key', list.map((d) => [d.retention.key, d] as const));
  const retentionTables = list.flatMap((d): RetentionTable[] => [
    ...(d.retention.tables ?? d.tables.map((t) => t.table)).map((table) => ({
      table, key: d.retention.key, column: 'ingested_at', ...(d.retention.recompress ? { recompress: true as const } : {}),
    })),
    ...(d.retention.rollups ?? []).map((table) => ({ table, key: 'rollup_days', column: 'ingested_at' })),
    ...(d.retention.derived ?? []).map((table) => ({ table, key: d.retention.key, column: 'ingested_at' })),
  ]);
  const schemas = list.flatMap((d) => d.sources.map((k: SourceKind) => k.schema));
  const sourceSchema = z.discriminatedUnion('type', schemas as unknown as [z.ZodObject, ...z.ZodObject[]]);
  const family = (name: string): FamilyDescriptor | undefined => byName.get(name);
  return {
    list,
    names: list.map((d) => d.family),
    family,
    kind: (type) => kinds.get(type),
    layouts,
    layout: (id) => byId.get(id),
    sourceSchema: sourceSchema as unknown as Families<SchemaOf<D[number]>>['sourceSchema'],
    retentionSchema: retentionConfigSchema(list.map((d) => d.retention)),
    retentionTables,
    with: (...more) => familyRegistry([...list, ...more]),
    async createSource(s, ctx) {
      const found = kinds.get(s.type);
      if (found === undefined) throw new Error(`no family reads sources of type ${s.type}`);
      const module = await found.kind.load();
      return module.createSource(s, { ...ctx, family: found.family.family, createRows: found.family.rows });
    },
    rowsOf(name, records) {
      const d = family(name);
      if (d === undefined) throw new Error(`no family is named ${name}`);
      return buildRows(d.rows, records);
    },
  };
}

/** A way in's `type` literal, read from its schema (the config's discriminator). */
function typeName(kind: SourceKind): string {
  const shape = (kind.schema as unknown as { _zod: { propValues?: { type?: Set<unknown> } } })._zod.propValues?.type;
  const [name] = shape ?? [];
  if (typeof name !== 'string' || shape?.size !== 1) throw new Error('a source kind\'s schema must have one literal `type`');
  return name;
}

function uniqueMap<V>(what: string, entries: ReadonlyArray<readonly [string, V]>): Map<string, V> {
  const map = new Map<string, V>();
  for (const [key, value] of entries) {
    if (map.has(key)) throw new Error(`two families name the ${what} ${key}: each must be given once (docs/adding-a-family.md)`);
    map.set(key, value);
  }
  return map;
}
