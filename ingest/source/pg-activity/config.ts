// Configuration of a `pg_activity` source: perfpipe samples a PostgreSQL server's pg_stat_activity (and
// pg_wait_sampling's history when installed) every interval (`run` and `agent` only). Every key with its unit and
// default (this block is the user doc). The password never comes from here: libpq's way, PGPASSWORD or ~/.pgpass
// (PGPASSFILE), looked up by password.ts.
import { z } from 'zod';

const ms = (what: string, min: number) => z.number()
  .min(min, { error: (issue) => `${JSON.stringify(issue.input)} is too small; expected ${what}` })
  .refine(Number.isInteger, { error: (issue) => `${JSON.stringify(issue.input)} is not whole; expected ${what}` });

/** A postgres URL without a password: the URL is logged and kept in config files. */
function connectionIssue(url: string): string | null {
  if (!URL.canParse(url)) return 'is not a URL; expected e.g. "postgresql://postgres@127.0.0.1:5432/postgres"';
  const u = new URL(url);
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:') return `has scheme ${JSON.stringify(u.protocol)}; expected "postgresql://user@host:port/db"`;
  if (u.password !== '') return 'holds a password; put it in PGPASSWORD or ~/.pgpass instead (the URL is logged and kept in files)';
  if (u.searchParams.has('password')) return 'holds a password parameter; put it in PGPASSWORD or ~/.pgpass instead (the URL is logged and kept in files)';
  return null;
}

export const PgActivitySourceConfigSchema = z.strictObject({
  type: z.literal('pg_activity'),
  /**
   * The server to sample: `postgresql://user@host:port/db` (a unix socket directory as `?host=/run/postgresql`).
   * The user needs pg_read_all_stats (or superuser) to see other roles' queries. Required.
   */
  connection: z.string().superRefine((url, ctx) => {
    const issue = connectionIssue(url);
    if (issue !== null) ctx.addIssue({ code: 'custom', message: issue });
  }),
  /** Time between samples, ms; one sample stands for this much time in the wait profile. Default 1000. */
  interval_ms: ms('milliseconds >= 100, e.g. 1000', 100).default(1000),
  /** statement_timeout of the sampler's own session, ms: a sample the server cannot answer in time is given up. Default 5000. */
  statement_timeout_ms: ms('milliseconds >= 100, e.g. 5000', 100).default(5000),
  /** Longest wait, ms, before connecting again after PostgreSQL refused or went away; the wait doubles from 500 ms. Default 30000. */
  reconnect_max_ms: ms('milliseconds >= 500, e.g. 30000', 500).default(30_000),
// Every source names where it reads as `location` (logs, checkpoints): here the server's URL, which holds no secret.
}).transform((c) => ({ ...c, location: c.connection }));
export type PgActivitySourceConfig = z.infer<typeof PgActivitySourceConfigSchema>;
