// The source families, in one list (docs/adding-a-family.md): each `sources[]` entry type of the config, its schema,
// and the module that builds its source. The schemas are read eagerly (the config needs them to parse); a family's
// module is loaded only when a source of that type is configured, so a TJ-only agent does not load the PostgreSQL
// client, the XML reader or the atop parsers (its module import fell from 490 to 300-360 ms).
import { z } from 'zod';
import type { FileSource } from '../source/file-source.js';
import type { SourceContext } from '../source/source-context.js';
import type { PgActivityEvents } from '../source/pg-activity/events.js';
import { TjSourceConfigSchema } from '../source/tj/tj-source-config.js';
import { PgSourceConfigSchema } from '../source/pg/pg-source-config.js';
import { ApdexSourceConfigSchema } from '../source/apdex/apdex-source-config.js';
import { AtopSourceConfigSchema } from '../source/atop/atop-source-config.js';
import { AtopRawSourceConfigSchema } from '../source/atop/atop-raw-source-config.js';
import { AtopSpawnSourceConfigSchema } from '../source/atop/atop-spawn-source-config.js';
import { PgActivitySourceConfigSchema } from '../source/pg-activity/config.js';

/** One entry of the config's `sources[]`: a schema per `type`. */
export const SourceConfigSchema = z.discriminatedUnion('type', [
  TjSourceConfigSchema, PgSourceConfigSchema, ApdexSourceConfigSchema, AtopSourceConfigSchema, AtopRawSourceConfigSchema,
  AtopSpawnSourceConfigSchema, PgActivitySourceConfigSchema,
]);

export type SourceConfig = z.infer<typeof SourceConfigSchema>;
export type SourceType = SourceConfig['type'];

/** What a family's module is given: the common context, and the telemetry of the families that have their own. */
export type FamilyContext = SourceContext & { activity: PgActivityEvents };

interface FamilyModule<C> {
  createSource(s: C, ctx: FamilyContext): FileSource;
}

/** Each source type's module (ingest/source/<family>/<family>-family.ts). */
export const SOURCE_FAMILIES: { [T in SourceType]: () => Promise<FamilyModule<Extract<SourceConfig, { type: T }>>> } = {
  tj: () => import('../source/tj/tj-family.js'),
  pg: () => import('../source/pg/pg-family.js'),
  apdex: () => import('../source/apdex/apdex-family.js'),
  atop: () => import('../source/atop/atop-family.js'),
  atop_raw: () => import('../source/atop/atop-family.js'),
  atop_spawn: () => import('../source/atop/atop-family.js'),
  pg_activity: () => import('../source/pg-activity/pg-activity-family.js'),
};

/** The source of one config entry, its family's module loaded on first use. */
export async function createConfiguredSource<C extends SourceConfig>(s: C, ctx: FamilyContext): Promise<FileSource> {
  const load = SOURCE_FAMILIES[s.type] as () => Promise<FamilyModule<C>>;
  return (await load()).createSource(s, ctx);
}
