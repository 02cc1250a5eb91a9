// Lock conflicts a real PostgreSQL logs, caused on purpose: a row-lock chain of three sessions, a deadlock, a lock
// timeout, a statement timeout, a temp file and slow statements (test/pg-live.test.ts, test/pg-prefix-live.test.ts).
// Each step waits for the state the previous step made (a lock held, a session waiting on it), not for a time, so
// psql start-up jitter on a busy machine cannot reorder them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PgCluster } from './pg-cluster.js';

/** Episodes per outcome the scenario causes: chain B on the transaction, chain C on the tuple, the deadlock survivor. */
export const SCENARIO_OUTCOMES = { acquired: 3, deadlock: 1, lock_timeout: 1, statement_timeout: 1 };
/** The waiting sessions' application names and how each wait ends. */
export const SCENARIO_WAITERS: Readonly<Record<string, string>> = {
  chainB: 'acquired', chainC: 'acquired', dlLeft: 'acquired', dlRight: 'deadlock', impatient: 'lock_timeout', stmtTo: 'statement_timeout',
};

/** Server settings the scenario's conflicts are logged under: the collector, lock waits past 100 ms, every statement. */
export const SCENARIO_SETTINGS: Readonly<Record<string, string>> = {
  logging_collector: 'on', log_directory: "'log'", log_filename: "'postgresql-%Y-%m-%d_%H%M%S.log'",
  log_lock_waits: 'on', deadlock_timeout: "'100ms'", log_min_duration_statement: '0', log_temp_files: '0',
  lc_messages: "'C'", autovacuum: 'off', log_checkpoints: 'off', shared_buffers: "'16MB'",
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** SQL that returns once `condition` holds, re-reading pg_stat_activity (a transaction keeps one snapshot of it). */
export const until = (condition: string): string =>
  `DO $$ BEGIN WHILE NOT (${condition}) LOOP PERFORM pg_sleep(0.02); PERFORM pg_stat_clear_snapshot(); END LOOP; END $$`;
/** The session named `app` holds a transaction id: its UPDATE took the row lock. */
const holds = (app: string): string => `EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = '${app}' AND backend_xid IS NOT NULL)`;
/** The session named `app` has waited on a lock for at least `ms`. */
const waiting = (app: string, ms = 0): string => `EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = '${app}' ` +
  `AND wait_event_type = 'Lock' AND clock_timestamp() - state_change >= interval '${ms} milliseconds')`;

/** Creates the table the scenario updates (rows 1–6). */
export async function prepareScenario(c: PgCluster): Promise<void> {
  await c.psql(['CREATE TABLE t (id int PRIMARY KEY, v int)', 'INSERT INTO t SELECT g, 0 FROM generate_series(1, 6) g']);
}

/**
 * Runs the sessions. Waits that must be logged run past deadlock_timeout (100 ms): log_lock_waits writes "still
 * waiting" only then. Expected: SCENARIO_OUTCOMES.
 */
export async function scenario(c: PgCluster): Promise<void> {
  const s = (app: string, ...cmds: string[]): Promise<string> => c.psql(cmds, { PGAPPNAME: app });
  // Gave up = waited, then no longer runs a statement. Not "no longer waiting": a backend clears its wait event
  // between turns of its lock-wait loop (deadlock check, the "still waiting" log line), and a loaded CI run once saw
  // that gap, so the holder committed early and the victim acquired the lock instead of timing out.
  const running = (app: string): string => `EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = '${app}' AND state = 'active')`;
  const gaveUp = (victim: string): string[] => [until(waiting(victim)), until(`NOT ${running(victim)}`)];
  await Promise.all([
    s('chainA', 'BEGIN', 'UPDATE t SET v = v + 1 WHERE id = 1', until(`${waiting('chainB', 300)} AND ${waiting('chainC', 200)}`), 'COMMIT'),
    s('chainB', until(holds('chainA')), 'UPDATE t SET v = v + 1 WHERE id = 1'),
    s('chainC', until(waiting('chainB')), 'UPDATE t SET v = v + 1 WHERE id = 1'),
    s('dlLeft', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 2', until(holds('dlRight')), 'UPDATE t SET v = 1 WHERE id = 3', 'COMMIT'),
    s('dlRight', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 3', until(waiting('dlLeft', 200)), 'UPDATE t SET v = 1 WHERE id = 2', 'COMMIT'),
    // The holders keep their row until their victim gave up waiting (appeared waiting, then stopped).
    s('ltHolder', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 4', ...gaveUp('impatient'), 'COMMIT'),
    s('impatient', until(holds('ltHolder')), "SET lock_timeout = '500ms'", 'UPDATE t SET v = 2 WHERE id = 4'),
    s('stHolder', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 5', ...gaveUp('stmtTo'), 'COMMIT'),
    s('stmtTo', until(holds('stHolder')), "SET statement_timeout = '600ms'", 'UPDATE t SET v = 2 WHERE id = 5'),
    s('sorter', "SET work_mem = '64kB'", 'SELECT count(*) FROM (SELECT g FROM generate_series(1, 100000) g ORDER BY g DESC) s', 'SELECT pg_sleep(0.25)'),
  ]);
}

/** Resolves once `ready()` holds, polling every 50 ms; throws with `what` after `ms`. */
export async function waitFor(what: string, ready: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !ready(); await sleep(50)) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
  }
}

export const logFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)) : []);
const logged = (dir: string, text: string): boolean => logFiles(dir).some((f) => readFileSync(f, 'utf8').includes(text));

/** A statement the server logs (log_min_duration_statement = 0), returned once every line before it was written. */
export async function markEnd(c: PgCluster, dir: string, marker: string): Promise<void> {
  await c.psql([`SELECT '${marker}'`]);
  await waitFor(`"${marker}" in ${dir}`, () => logged(dir, marker));
}
