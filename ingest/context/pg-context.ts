// Reads what a run remembers of its PostgreSQL server (issue #25 item 4, docs/runs.md): the version, every row of
// pg_settings with its source, and the installed extensions, through one short read-only connection. The values are
// as SHOW prints them (`64MB`, `1.1`), the form the server log uses when a reload changes one (docs/pg-format.md §8).
// The password comes as for the pg_activity sampler: PGPASSWORD or ~/.pgpass (ingest/source/pg-activity/password.ts).
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { lookUpPassword } from '../source/pg-activity/password.js';
import type { HostFact } from '../../parsers/host/host-facts.js';

/** What this connection is called in pg_stat_activity. */
export const CONTEXT_APPLICATION_NAME = 'perfpipe run context';

export interface PgContext {
  /** `server_version` as SHOW prints it (`15.10 (Debian 15.10-0+deb12u1)`). */
  version: string;
  facts: HostFact[];
  settings: number;
  extensions: number;
}

type Row = Record<string, unknown>;

export async function readPgContext(connection: string, timeoutMs = 5_000): Promise<PgContext> {
  const client = new pg.Client({
    ...parseIntoClientConfig(connection),
    password: lookUpPassword as unknown as () => Promise<string>,
    application_name: CONTEXT_APPLICATION_NAME,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    options: '-c default_transaction_read_only=on',
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const version = String((await client.query<Row>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? '');
    // Read the same way each time (this module's connection options), so the rows a session sets itself (source
    // `client`: application_name, client_encoding) read the same from one run to the next.
    const settings = (await client.query<Row>('SELECT name, current_setting(name) AS value, source FROM pg_settings ORDER BY name')).rows;
    const extensions = (await client.query<Row>('SELECT extname, extversion FROM pg_extension ORDER BY extname')).rows;
    const facts: HostFact[] = [
      { name: 'server_version', value: version, source: 'server_version' },
      ...settings.map((r) => ({ name: String(r.name), value: String(r.value ?? ''), source: String(r.source ?? '') })),
      ...extensions.map((r) => ({ name: `extension ${String(r.extname)}`, value: String(r.extversion ?? ''), source: 'pg_extension' })),
    ];
    return { version, facts, settings: settings.length, extensions: extensions.length };
  } finally {
    await client.end().catch(() => {});
  }
}
