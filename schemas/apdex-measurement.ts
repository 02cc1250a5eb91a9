// What the 1C performance-evaluation export (SSL «Оценка производительности», docs/apdex.md §2.2) yields:
// one record per key-operation measurement, and the key-operation settings the export carries.
import { z } from 'zod';
import { OriginSchema } from './origin.js';

/** ISO-8601 UTC with milliseconds, e.g. `2026-11-30T10:00:00.000Z`. */
const isoMs = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** Settings of a key operation as the export states them; null where this format version has no such field. */
const KeyOperationFields = {
  /** Technical name (`nameFull`, the SSL catalog's Name): the join key; `name` when an older export lacks it. */
  operation: z.string().min(1),
  /** Human description (`name`). */
  operation_name: z.string(),
  /** Catalog reference UUID (`uid`), '' when absent. */
  operation_uid: z.string(),
  /** Target time T in seconds (`targetValue`); null when absent or not positive. */
  target_s: z.number().positive().nullable(),
  /** SSL priority, 1 = most important. */
  priority: z.number().int().nullable(),
  /** Minimum acceptable APDEX (`minimalApdexValue`, format 1.0.0.0 only): 0.5/0.7/0.85/0.94/1. */
  min_level: z.number().nullable(),
  /** Time-consuming key operation (`long`, 1.0.0.4). */
  long: z.boolean().nullable(),
};

export const ApdexMeasurementSchema = z.strictObject({
  kind: z.literal('measurement'),
  /** `offset` is where the `<measurement` tag starts. */
  origin: OriginSchema,
  event_id: z.string(),
  ...KeyOperationFields,
  /** Measurement comment (on KeyOperation in 1.0.0.4, on measurement in 1.0.0.0), '' when none. */
  comment: z.string(),
  /** Start of the measurement (`tUtc`: ms since 0001-01-01 UTC, or a dateTime in 1.0.0.0). */
  ts_start: isoMs,
  /** Run time (`value`, seconds in the export) as whole microseconds, so T comparisons are exact. */
  duration_us: z.number().int().nonnegative(),
  /** `weight` (SSL MeasurementWeight, default 1); stored, not used by APDEX (docs/apdex.md §2.1). */
  weight: z.number(),
  /** Infobase user (`userName`), '' when absent. */
  user: z.string(),
  session_number: z.number().int().nonnegative().nullable(),
  /** When the base recorded it (`tSaveUTC`). */
  saved_at: isoMs.nullable(),
  /** Completed with error (`runningError`; on KeyOperation before 1.0.0.4). */
  failed: z.boolean().nullable(),
});
export type ApdexMeasurement = z.infer<typeof ApdexMeasurementSchema>;

export const ApdexKeyOperationSchema = z.strictObject({
  kind: z.literal('key_operation'),
  /** `offset` is where the `<KeyOperation` tag starts. */
  origin: OriginSchema,
  ...KeyOperationFields,
  /** APDEX the base computed itself (`currentApdexValue`, 1.0.0.0 only). */
  current_apdex: z.number().nullable(),
  /** Measurements of this element that were emitted. */
  measurements: z.number().int().nonnegative(),
});
export type ApdexKeyOperation = z.infer<typeof ApdexKeyOperationSchema>;

export const ApdexRecordSchema = z.discriminatedUnion('kind', [ApdexMeasurementSchema, ApdexKeyOperationSchema]);
export type ApdexRecord = z.infer<typeof ApdexRecordSchema>;
