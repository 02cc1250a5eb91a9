// Configuration of a PostgreSQL log source: every key with its unit and default (this block is the user doc).
import { z } from 'zod';
import { TimeZone } from '../tj/tj-source-config.js';

export const PgSourceConfigSchema = z.strictObject({
  type: z.literal('pg'),
  /** The server's `log_directory` (absolute, or the data directory's `log/`), or one log file, read whatever its name. Required. */
  location: z.string().min(1),
  /**
   * Which destination's files to read: `stderr` (`.log`), `csvlog` (`.csv`) or `jsonlog` (`.json`). Default: each
   * file's own, told by its content; in a directory the stderr files, else the csvlog ones, else the jsonlog ones.
   */
  format: z.enum(['stderr', 'csvlog', 'jsonlog'], {
    error: (issue) => `${JSON.stringify(issue.input)} is not a log destination; expected "stderr", "csvlog" or "jsonlog"`,
  }).nullable().default(null),
  /**
   * The server's `log_line_prefix` (stderr only; psql: SHOW log_line_prefix). Default: found from each file's first
   * lines (docs/pg-format.md §3); a file no prefix fits is not read and said once.
   */
  prefix: z.string().nullable().default(null),
  /**
   * The server's `log_filename`: strftime escapes (`postgresql-%Y-%m-%d_%H%M%S.log`, `postgresql-%a.log`) or a glob
   * (`*`, `?`). csvlog/jsonlog files are found the way the server names them (`.log` → `.csv`/`.json`). Default `postgresql-*`.
   */
  filename: z.string().min(1).default('postgresql-*'),
  /** IANA `log_timezone`, used only to resolve zone abbreviations (`MSK`, `IST`) in timestamps. Default none (a small table, else UTC). */
  tz: TimeZone.nullable().default(null),
  /** Seconds a file must stay unchanged, once a newer log file exists beside it, before it is finished and closed. Default 60. */
  idle_finish_s: z.number().int().nonnegative().default(60),
});
export type PgSourceConfig = z.infer<typeof PgSourceConfigSchema>;
