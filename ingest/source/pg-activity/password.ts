// The sampler's password, looked up as libpq does (PostgreSQL docs, "Environment Variables" and "The Password
// File"): PGPASSWORD, else the first line of the password file (PGPASSFILE, else ~/.pgpass, ignored unless mode
// 0600) matching host, port, database and user. Never from the URL, a flag or a file of perfpipe's.
// node-postgres does the same lookup itself but deprecates it (a warning on every start, gone in pg 9), so it is
// done here with `pgpass`, the package node-postgres itself uses for it, and handed over as its `password` callback.
import pgpass from 'pgpass';

/** What node-postgres passes the `password` callback: the connection's parameters, the password not yet known. */
export interface PasswordQuery {
  host?: string;
  port?: number;
  database?: string;
  user?: string;
}

/** The password for this connection, or undefined when none is set (the server then says whether it needs one). */
export function lookUpPassword(c: PasswordQuery): Promise<string | undefined> {
  // Read at each connect, not at start: a DBA may set the file between retries.
  if (Object.hasOwn(process.env, 'PGPASSWORD')) return Promise.resolve(process.env.PGPASSWORD);
  return new Promise((resolve) => {
    pgpass({ host: c.host, port: c.port, database: c.database, user: c.user }, resolve);
  });
}
