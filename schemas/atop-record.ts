// One line of atop parseable output (`atop -P`, docs/atop-format.md §2–5) as a typed record: the common header,
// the sample it belongs to, and the label's fields under names chosen per atop version.
import { z } from 'zod';
import { OriginSchema } from './origin.js';

/** A field value: numbers as numbers, names/flags as strings, CGR `P` lines' PID list as numbers. */
export const AtopFieldValueSchema = z.union([z.number(), z.string(), z.array(z.number())]);
export type AtopFieldValue = z.infer<typeof AtopFieldValueSchema>;

export const AtopRecordSchema = z.strictObject({
  /** atop label as printed, case-sensitive: `CPU` is the total, `cpu` one core (docs/atop-format.md §1). */
  label: z.string().regex(/^[A-Za-z]{3}$/),
  /** Host name atop recorded (`utsname.nodename`; for `atop -r` the host of the raw file). */
  host: z.string().min(1),
  /** End of the sample interval, seconds since the epoch (UTC). All lines of a sample share it. */
  epoch: z.number().int(),
  /** `epoch` as ISO-8601 UTC, e.g. `2026-11-30T14:09:04.000Z`. */
  ts: z.string(),
  /** `YYYY/MM/DD` as printed: local time of the process that ran atop, kept for reference only. */
  date: z.string(),
  /** `HH:MM:SS` as printed, local time like `date`. */
  time: z.string(),
  /** Seconds the sample covers; for a since-boot sample this is the uptime. */
  interval: z.number().int().nonnegative(),
  /** The sample followed a `RESET`: its Δ values count since boot, so they must never be stored as rates. */
  since_boot: z.boolean(),
  /** Number of the sample (0-based, counted at `SEP` lines) from where this parser started reading. */
  sample: z.number().int().nonnegative(),
  /** atop versions that print this label with this field count, e.g. `2.8–2.9`; `newer` past 2.13. */
  layout: z.string(),
  /** The label's fields after the 6 header tokens, named per parsers/atop/labels/. */
  fields: z.record(z.string(), AtopFieldValueSchema),
  origin: OriginSchema,
});
export type AtopRecord = z.infer<typeof AtopRecordSchema>;
