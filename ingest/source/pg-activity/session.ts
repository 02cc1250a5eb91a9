// One connection of the sampler to PostgreSQL (node-postgres): opened with its own application_name, a
// statement_timeout and a read-only default, the server's traits read once, then one sample per call.
// The password is never ours to hold: PGPASSWORD, else a matching ~/.pgpass line (PGPASSFILE), as libpq does
// (password.ts).
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { lookUpPassword } from './password.js';
import { readActivity, readWaitSamples, sampleSql, type ServerTraits } from './sample-query.js';
import type { PgActivityBackend, PgWaitSample } from '../../../schemas/pg-activity-sample.js';

/** What the sampler's backend is called in pg_stat_activity: a DBA sees who asks, and it is never stored. */
export const SAMPLER_APPLICATION_NAME = 'perfpipe pg_activity sampler';

export interface SessionOptions {
  connection: string;
  statementTimeoutMs: number;
}

export interface SampleResult {
  nowMs: number;
  backends: PgActivityBackend[];
  waitSamples: PgWaitSample[];
}

export interface PgSession {
  readonly traits: ServerTraits;
  /** pg_wait_sampling.history_period, ms (0 without the extension). */
  readonly waitPeriodMs: number;
  /** Why the installed pg_wait_sampling cannot be read (not in shared_preload_libraries), or null. */
  readonly waitSamplingProblem: string | null;
  /** Whether the connection is gone (the server restarted, the network dropped): open a new session. */
  readonly broken: boolean;
  sample(): Promise<SampleResult>;
  close(): Promise<void>;
}

type Row = Record<string, unknown>;

export async function openSession(o: SessionOptions): Promise<PgSession> {
  const client = new pg.Client({
    // The URL's parts rather than `connectionString`, whose parsed empty password would override the callback.
    ...parseIntoClientConfig(o.connection),
    // @types/pg leaves out the parameters node-postgres passes the callback (client.js `_getPassword`) and the
    // undefined it takes for "no password"; both are how it runs.
    password: lookUpPassword as unknown as () => Promise<string>,
    application_name: SAMPLER_APPLICATION_NAME,
    statement_timeout: o.statementTimeoutMs,
    // The client gives up a little after the server would have: a dead network, not a slow server.
    query_timeout: o.statementTimeoutMs + 2000,
    connectionTimeoutMillis: Math.max(2000, o.statementTimeoutMs),
    options: '-c default_transaction_read_only=on -c lock_timeout=1000',
  });
  let broken = false;
  // An idle connection the server closes (restart, pg_terminate_backend) is an 'error' event: unhandled it would
  // end the process. It marks the session broken; the next sample fails and the source reconnects.
  client.on('error', () => { broken = true; });
  client.on('end', () => { broken = true; });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  try {
    const r = await client.query<Row>(`SELECT current_setting('server_version_num')::int AS version,
      to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS now,
      EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_wait_sampling') AS wait_sampling,
      current_setting('pg_wait_sampling.history_period', true) AS history_period`);
    const head = r.rows[0] ?? {};
    let waitSampling = head.wait_sampling === true;
    let problem: string | null = null;
    if (waitSampling) {
      // Created but not preloaded, the extension's views fail on every read: find out once, not every sample.
      try {
        await client.query('SELECT 1 FROM pg_wait_sampling_history LIMIT 1');
      } catch (error) {
        waitSampling = false;
        problem = `pg_wait_sampling is installed but its history cannot be read (${(error as Error).message}); add it to shared_preload_libraries`;
      }
    }
    const traits: ServerTraits = { version: Number(head.version), waitSampling };
    let waitAfter: string | null = waitSampling ? String(head.now) : null;
    return {
      traits,
      waitPeriodMs: waitSampling ? Number(head.history_period ?? 10) || 10 : 0,
      waitSamplingProblem: problem,
      get broken() { return broken; },
      async sample() {
        const result = await client.query<Row>(sampleSql(traits, waitAfter)) as unknown as pg.QueryResult<Row> | Array<pg.QueryResult<Row>>;
        const [activity, waits] = Array.isArray(result) ? result : [result, undefined];
        const { nowMs, backends } = readActivity(activity?.rows ?? []);
        const waitSamples = waits === undefined ? [] : readWaitSamples(waits.rows);
        const last = waitSamples.at(-1);
        if (last !== undefined) waitAfter = last.ts;
        return { nowMs, backends, waitSamples };
      },
      async close() {
        broken = true;
        await client.end().catch(() => {});
      },
    };
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}
