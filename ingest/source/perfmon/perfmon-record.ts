// What the perfmon family's parser emits and the table its rows go to: one record, and one perfmon_samples row, per
// counter value of a sample line (900_perfmon_samples.sql creates the table).
import { z } from 'zod';
import { col, tableLayout } from '../../../schemas/columns.js';
import { OriginSchema } from '../../../schemas/origin.js';

export const PerfmonSampleSchema = z.strictObject({
  /** The sample's time in UTC, `YYYY-MM-DD hh:mm:ss.fff`. */
  ts: z.string(),
  /** The counter's path as the header names it, `\\HOST\Object(Instance)\Counter`. */
  counter: z.string(),
  /** Null where the log has no value (a blank cell: the counter was not there at that sample). */
  value: z.number().nullable(),
  origin: OriginSchema,
});
export type PerfmonSample = z.infer<typeof PerfmonSampleSchema>;

export const PERFMON_SAMPLES = tableLayout('perfmon_samples', {
  ts: col.dateTime64(3),
  host: col.lowCardinality(),
  counter: col.lowCardinality(),
  value: col.nullable(col.float64()),
  file_key: col.string(),
  file_offset: col.safeUint64(),
});
