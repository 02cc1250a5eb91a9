// One engine connection prepared for one user's request, as a ClickHouse server prepares a query context: the
// server's defaults where the embedded engine's differ, the configured limits, the user's readonly level, then the
// request's own settings (checked against the limits' maxima first) and database. Each connection keeps its settings
// to itself (measured: a SET on one chdb Session is not seen by another on the same data).
import type { Session } from 'chdb';
import type { ServeLimits } from '../../ingest/config/serve-config.js';
import { chError, fromEngineError } from './errors.js';

/**
 * Settings the embedded engine (clickhouse-local) changes from a server's defaults, put back: implicit_select
 * would run `1 + 1` as a query, and introspection functions read the daemon's own memory map.
 */
const SERVER_DEFAULTS: Record<string, string> = { implicit_select: '0', allow_introspection_functions: '0' };

/** A ClickHouse literal: the value quoted, with backslashes and quotes escaped. */
export const quote = (v: string): string => `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The configured limits as engine settings; 0 leaves the engine's (no) limit. */
export function limitSettings(limits: ServeLimits): Record<string, string> {
  const s: Record<string, string> = {};
  if (limits.max_execution_time > 0) s.max_execution_time = String(limits.max_execution_time);
  if (limits.max_result_rows > 0) s.max_result_rows = String(limits.max_result_rows);
  if (limits.max_result_bytes > 0) s.max_result_bytes = String(limits.max_result_bytes);
  if (limits.max_result_rows > 0 || limits.max_result_bytes > 0) s.result_overflow_mode = 'throw';
  return s;
}

/** What a read-only user's queries run under beyond the limits: their threads' nice (docs/clickhouse-http.md §3). */
export function readerSettings(limits: ServeLimits): Record<string, string> {
  return limits.reader_os_thread_priority > 0 ? { os_thread_priority: String(limits.reader_os_thread_priority) } : {};
}

/** Settings whose limit is a minimum: a nice value may only go up (lower priority). */
const MINIMUM_LIMITS = new Set(['os_thread_priority']);

/**
 * A request may lower a limit, never raise it or switch it off: ClickHouse's SETTING_CONSTRAINT_VIOLATION, as a
 * settings profile's `max` constraint answers. result_overflow_mode stays `throw` so a limit is an error, not a cut.
 */
export function checkConstraints(settings: ReadonlyArray<[string, string]>, limits: Record<string, string>): void {
  for (const [name, value] of settings) {
    const max = limits[name];
    if (max === undefined) continue;
    if (name === 'result_overflow_mode') {
      if (value !== max) throw chError('SETTING_CONSTRAINT_VIOLATION', `Setting result_overflow_mode should not be changed`);
      continue;
    }
    const n = Number(value);
    if (MINIMUM_LIMITS.has(name)) {
      if (!Number.isInteger(n) || n < Number(max) || n > 19) throw chError('SETTING_CONSTRAINT_VIOLATION', `Setting ${name} shouldn't be less than ${max}`);
      continue;
    }
    if (!Number.isFinite(n) || n > Number(max) || n <= 0) {
      throw chError('SETTING_CONSTRAINT_VIOLATION', `Setting ${name} shouldn't be greater than ${max}`);
    }
  }
}

/** Runs `SET a = 'x', b = 'y'` for the pairs, in one call; an unknown name or a bad value is the engine's error. */
export async function applySettings(session: Session, settings: ReadonlyArray<[string, string]>): Promise<void> {
  if (settings.length === 0) return;
  for (const [name] of settings) if (!SETTING_NAME.test(name)) throw chError('UNKNOWN_SETTING', `Unknown setting '${name}'`);
  await run(session, `SET ${settings.map(([k, v]) => `${k} = ${quote(v)}`).join(', ')}`);
}

/** What every new connection of this interface starts with: the server's defaults, the limits, the readonly level. */
export async function prepareSession(session: Session, limits: Record<string, string>, readonly: boolean): Promise<void> {
  await applySettings(session, [...Object.entries(SERVER_DEFAULTS), ...Object.entries(limits), ...(readonly ? [['readonly', '2'] as [string, string]] : [])]);
}

export async function useDatabase(session: Session, database: string): Promise<void> {
  await run(session, `USE \`${database.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``);
}

async function run(session: Session, sql: string): Promise<void> {
  try {
    await session.queryAsync(sql, { format: 'TabSeparated' });
  } catch (error) {
    throw fromEngineError(error);
  }
}
