// The `apdex_measurements` and `key_operations` rows (queries/ddl/010_apdex.sql). schemas/ddl-agreement.test.ts holds
// these schemas and the DDL in step; filling them from the export parser's records is ingest/source/apdex/apdex-rows.ts.
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';

const lc = col.lowCardinality;

export const APDEX_MEASUREMENTS = tableLayout('apdex_measurements', {
  ts_start: col.dateTime64(3),
  duration_us: col.safeUint64(),
  operation: lc(),
  operation_name: lc(),
  operation_uid: lc(),
  target_s: col.nullable(col.float64()),
  priority: col.nullable(col.uint32()),
  min_level: col.nullable(col.float64()),
  long: col.nullable(col.bool()),
  comment: col.string(),
  weight: col.float64(),
  user: lc(),
  session_number: col.nullable(col.safeUint64()),
  saved_at: col.nullable(col.dateTime64(3)),
  failed: col.nullable(col.bool()),
  host: lc(),
  file: col.string(),
  file_key: col.string(),
  file_offset: col.safeUint64(),
});
export const ApdexRowSchema = APDEX_MEASUREMENTS.schema;
export type ApdexRow = z.infer<typeof ApdexRowSchema>;

export const KEY_OPERATIONS = tableLayout('key_operations', {
  /** Technical name of the key operation (`nameFull`), the join key with apdex_measurements.operation. */
  name: col.string(),
  description: col.string(),
  /** T in seconds; null = take the export's T. */
  target_s: col.nullable(col.float64()),
  priority: col.nullable(col.uint32()),
  min_level: col.nullable(col.float64()),
  /** Who set it: `export` (loaded from an export file) or `manual` (an analyst's override). */
  source: lc(),
  /**
   * The highest version per name wins (ReplacingMergeTree). Export rows: Unix seconds of the newest measurement
   * start in their KeyOperation (< 2^32); manual overrides: Unix ms of the change, so they always win
   * (ingest/source/apdex/apdex-rows.ts).
   */
  version: col.safeUint64(),
});
export const KeyOperationRowSchema = KEY_OPERATIONS.schema;
export type KeyOperationRow = z.infer<typeof KeyOperationRowSchema>;
