// A technological journal event as parsed (docs/tj-format.md §2–3): header fields, every property under
// its original name, and where it came from. This is what `perfpipe parse tj` prints and the bus carries.
import { z } from 'zod';
import { OriginSchema } from './origin.js';

export const TJ_SCHEMA_VERSION = '1';

export const TjEventSchema = z.strictObject({
  /** Event name as written (`CALL`, `DBPOSTGRS`, `TLOCK`, `Context`…). */
  event: z.string().min(1),
  /** End of the event (the written time), ISO-8601 UTC with microseconds. */
  ts: z.string(),
  /** ts − duration. */
  ts_start: z.string(),
  /** Duration in microseconds (8.2 files' 1/10000 s are converted). */
  duration_us: z.number().int().nonnegative(),
  /** Nesting level of the event in the thread's call stack (third header field). */
  depth: z.number().int().nonnegative(),
  /** Every property in file order, flat: `[name0, value0, name1, value1, …]`; repeated names kept. */
  properties: z.array(z.string()),
  origin: OriginSchema,
  /** Bytes the event occupies in the file, line break excluded. */
  length: z.number().int().nonnegative(),
});
export type TjEvent = z.infer<typeof TjEventSchema>;

/**
 * The NDJSON form `perfpipe parse tj` prints: `props` holds every property under its original name,
 * a string, or an array of strings when the name repeats.
 */
export const TjEventJsonSchema = TjEventSchema.omit({ properties: true }).extend({
  props: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});
export type TjEventJson = z.infer<typeof TjEventJsonSchema>;
