// The `serve:` section: ClickHouse's HTTP interface on the embedded store (daemon/clickhouse-http/,
// docs/clickhouse-http.md). Its schema sits here, beside the config that composes it, because the whole config is
// parsed in this layer; the daemon that serves it reads the parsed section.
import { z } from 'zod';

const Listen = z.string().regex(/^[\w.:[\]-]+:\d{1,5}$/, { error: 'expected host:port, e.g. "127.0.0.1:8123"' });

export const ServeUserSchema = z.strictObject({
  /** The name a client logs in with (basic auth, X-ClickHouse-User or `user=`). */
  name: z.string().regex(/^[\w.@-]{1,64}$/, { error: 'expected a user name of letters, digits, "_", ".", "@" or "-"' }),
  /** Environment variable that holds the password. */
  password_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name' }).optional(),
  /** File whose content (without a final line break) is the password; readable by perfpipe only, as a secret should be. */
  password_file: z.string().min(1).optional(),
  /** The user logs in with no password at all. Only on purpose: a user needs one of the three. */
  no_password: z.literal(true).optional(),
  /**
   * Read-only (the default): SELECT and other reads, and settings on requests (ClickHouse's readonly=2), never
   * INSERT, DDL or a change of `readonly` itself. `false` gives the user writes as well.
   */
  readonly: z.boolean().default(true),
}).superRefine((u, ctx) => {
  const ways = [u.password_env, u.password_file, u.no_password].filter((w) => w !== undefined).length;
  if (ways !== 1) {
    ctx.addIssue({ code: 'custom', message: `${ways === 0 ? 'has no password' : 'has more than one password'}; expected exactly one of password_env, password_file or no_password: true (passwords never go in the config text)` });
  }
});
export type ServeUser = z.infer<typeof ServeUserSchema>;

export const ServeLimitsSchema = z.strictObject({
  /** Seconds a query may run before it is cancelled (TIMEOUT_EXCEEDED); 0 = no limit. Default 300. A client may ask for less, never more. */
  max_execution_time: z.number().nonnegative().default(300),
  /** Rows a result may hold before the query is cancelled (TOO_MANY_ROWS_OR_BYTES); 0 = no limit. Default 0. */
  max_result_rows: z.number().int().nonnegative().default(0),
  /** Bytes (uncompressed) a result may hold before the query is cancelled; 0 = no limit. Default 0. */
  max_result_bytes: z.number().int().nonnegative().default(0),
  /** Queries running at once over this interface. Default 8: two cores, and the ingest runs beside them. */
  max_concurrent_queries: z.number().int().positive().default(8),
  /** Milliseconds one more query waits for a free slot before TOO_MANY_SIMULTANEOUS_QUERIES. Default 10000. */
  queue_max_wait_ms: z.number().int().nonnegative().default(10_000),
  /** Bytes of query text (the URL's `query` and a body that holds SQL). Default 262144, ClickHouse's max_query_size. */
  max_query_size: z.number().int().min(1024).default(256 * 1024),
  /**
   * The Linux nice of read-only users' query threads (ClickHouse's os_thread_priority, 0–19), so that the ingest keeps
   * its rate while analysts' queries run: 19 kept it at 0.94× against 0.57× at 0 (bench/RESULTS.md). The engine sets
   * it only with CAP_SYS_NICE, as a server does. A client may raise it, never lower it. Default 19; 0 = off.
   */
  reader_os_thread_priority: z.number().int().min(0).max(19).default(19),
  /** Bytes of an INSERT's data after decompression. Default 1 GiB. */
  max_insert_bytes: z.number().int().min(1024).default(1024 * 1024 * 1024),
});
export type ServeLimits = z.infer<typeof ServeLimitsSchema>;

export const ServeConfigSchema = z.strictObject({
  /** Where ClickHouse's HTTP interface listens. Default `127.0.0.1:8123` (loopback, ClickHouse's own port). */
  listen: Listen.default('127.0.0.1:8123'),
  /** Who may connect. Nothing is served to anyone not listed; a user is read-only unless `readonly: false`. */
  users: z.array(ServeUserSchema).min(1, { error: 'lists no user; expected at least one, e.g. { name: analyst, password_env: PERFPIPE_ANALYST_PASSWORD }' }),
  /** Limits every query over this interface runs under (docs/clickhouse-http.md §3). */
  limits: ServeLimitsSchema.prefault({}),
  /** The name clients show for this server (X-ClickHouse-Server-Display-Name). Default: the host name. */
  display_name: z.string().min(1).optional(),
}).superRefine((s, ctx) => {
  const seen = new Set<string>();
  s.users.forEach((u, i) => {
    if (seen.has(u.name)) ctx.addIssue({ code: 'custom', path: ['users', i, 'name'], message: `"${u.name}" is listed twice` });
    seen.add(u.name);
  });
});
export type ServeConfig = z.infer<typeof ServeConfigSchema>;
