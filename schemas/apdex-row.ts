// The `apdex_measurements` and `key_operations` rows (queries/ddl/010_apdex.sql) and the mappings from the
// export parser's records. schemas/ddl-agreement.test.ts holds these schemas and the DDL in step.
import type { z } from 'zod';
import { col, tableLayout } from './columns.js';
import type { ApdexKeyOperation, ApdexMeasurement } from './apdex-measurement.js';
import { clickhouseTime } from './clickhouse-time.js';

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
   * (ingest/rows/apdex-rows.ts).
   */
  version: col.safeUint64(),
});
export const KeyOperationRowSchema = KEY_OPERATIONS.schema;
export type KeyOperationRow = z.infer<typeof KeyOperationRowSchema>;

const chTime = (iso: string): string => clickhouseTime(iso);

export function apdexMeasurementToRow(m: ApdexMeasurement): ApdexRow {
  return {
    ts_start: chTime(m.ts_start), duration_us: m.duration_us, operation: m.operation, operation_name: m.operation_name,
    operation_uid: m.operation_uid, target_s: m.target_s,
    // A negative priority cannot be stored as UInt32 and has no SSL meaning: treated as not given.
    priority: m.priority !== null && m.priority >= 0 ? m.priority : null,
    min_level: m.min_level, long: m.long, comment: m.comment, weight: m.weight, user: m.user,
    session_number: m.session_number, saved_at: m.saved_at === null ? null : chTime(m.saved_at), failed: m.failed,
    host: m.origin.host, file: m.origin.file, file_key: m.origin.file_key, file_offset: m.origin.offset,
  };
}

/** Settings found in an export, as a `key_operations` row with the given version (source `export`). */
export function keyOperationToRow(k: ApdexKeyOperation, version: number): KeyOperationRow {
  return {
    name: k.operation, description: k.operation_name, target_s: k.target_s,
    priority: k.priority !== null && k.priority >= 0 ? k.priority : null, min_level: k.min_level, source: 'export', version,
  };
}
