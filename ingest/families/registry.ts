// The data families perfpipe is built with, in one list (docs/adding-a-family.md): a family's line here is all the
// registering it needs. Every list of them — source types and their modules, topics, tables, retention keys, row
// builders, event schemas — is derived from this one (family-registry.ts). Descriptors are read eagerly (the config
// needs their schemas to parse); a family's source module is loaded only when a source of its type is configured,
// so a TJ-only agent does not load the PostgreSQL client, the XML reader or the atop parsers.
import type { z } from 'zod';
import type { TableRows } from '../bus/bus.js';
import { TJ_FAMILY } from '../source/tj/tj-family.js';
import { PG_FAMILY } from '../source/pg/pg-family.js';
import { APDEX_FAMILY } from '../source/apdex/apdex-family.js';
import { ATOP_FAMILY } from '../source/atop/atop-family.js';
import { PG_ACTIVITY_FAMILY } from '../source/pg-activity/pg-activity-family.js';
import { type Families, familyRegistry } from './family-registry.js';

export const FAMILIES = familyRegistry([TJ_FAMILY, PG_FAMILY, APDEX_FAMILY, ATOP_FAMILY, PG_ACTIVITY_FAMILY]);

/** One entry of the config's `sources[]`, of a built-in type. */
export type SourceConfig = z.output<typeof FAMILIES.sourceSchema>;
export type SourceType = SourceConfig['type'];

/** The rows of a whole list of a family's records (tests, benches). */
export function rowsOfRecords(family: string, records: readonly unknown[], families: Families = FAMILIES): { records: number; tables: TableRows[] } {
  return families.rowsOf(family, records);
}
