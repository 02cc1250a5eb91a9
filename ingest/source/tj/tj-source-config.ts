// Configuration of a TJ source: every key with its unit and default (this block is the user doc).
import { z } from 'zod';
import { isValidHour, isValidTimeZone } from '../../../parsers/tj/index.js';

export { systemTimeZone } from '../../../parsers/tj/zone-file.js';

export const TimeZone = z.string().refine(isValidTimeZone, {
  error: (issue) => `${JSON.stringify(issue.input)} is not an IANA zone; expected e.g. "Europe/Moscow"`,
});

/** Folders below the location that are searched: `<location>/<process>_<pid>/` and a few levels more for copied trees. */
export const MAX_DEPTH = 6;

export const TjSourceConfigSchema = z.strictObject({
  type: z.literal('tj'),
  /** The `location` of logcfg.xml: holds `<process>_<pid>/<yymmddhh>.log`; or one journal file. Required. */
  location: z.string().min(1),
  /**
   * IANA zone the 1C server writes local time in. Default: the zone named in `timezone.txt` at the top of the location
   * (perfpipe simulate writes one; parsers/tj/zone-file.ts), else this machine's zone.
   */
  tz: TimeZone.nullable().default(null),
  /** `yymmddhh` for files whose name carries no hour. Default none. */
  hour: z.string().refine(isValidHour, { error: 'expected yymmddhh, e.g. "24010415"' }).nullable().default(null),
  /** Seconds a file must stay unchanged, once a newer hour file exists beside it, before it is finished and closed. Default 60. */
  idle_finish_s: z.number().int().nonnegative().default(60),
});
export type TjSourceConfig = z.infer<typeof TjSourceConfigSchema>;
