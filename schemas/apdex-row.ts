// The `apdex_measurements` and `key_operations` rows (queries/ddl/010_apdex.sql) and the mappings from the
// export parser's records. schemas/ddl-agreement.test.ts holds these schemas and the DDL in step.
import { z } from 'zod';
import type { ApdexKeyOperation, ApdexMeasurement } from './apdex-measurement.js';
import { clickhouseTime } from './clickhouse-time.js';

/** ClickHouse DateTime64(3) text `YYYY-MM-DD hh:mm:ss.mmm`. */
const dt64 = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
const u32 = z.number().int().nonnegative();

export const ApdexRowSchema = z.strictObject({
  ts_start: dt64,
  duration_us: z.number().int().nonnegative(),
  operation: z.string(),
  operation_name: z.string(),
  operation_uid: z.string(),
  target_s: z.number().nullable(),
  priority: u32.nullable(),
  min_level: z.number().nullable(),
  long: z.boolean().nullable(),
  comment: z.string(),
  weight: z.number(),
  user: z.string(),
  session_number: z.number().int().nonnegative().nullable(),
  saved_at: dt64.nullable(),
  failed: z.boolean().nullable(),
  host: z.string(),
  file: z.string(),
  file_key: z.string(),
  file_offset: z.number().int().nonnegative(),
});
export type ApdexRow = z.infer<typeof ApdexRowSchema>;

export const KeyOperationRowSchema = z.strictObject({
  /** Technical name of the key operation (`nameFull`), the join key with apdex_measurements.operation. */
  name: z.string().min(1),
  description: z.string(),
  /** T in seconds; null = take the export's T. */
  target_s: z.number().positive().nullable(),
  priority: u32.nullable(),
  min_level: z.number().nullable(),
  /** Who set it: `export` (loaded from an export file) or `manual` (an analyst's override). */
  source: z.string(),
  /**
   * The highest version per name wins (ReplacingMergeTree). Export rows: Unix seconds of the newest measurement
   * start in their KeyOperation (< 2^32); manual overrides: Unix ms of the change, so they always win
   * (ingest/sink/apdex-segment-rows.ts).
   */
  version: z.number().int().nonnegative(),
});
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
