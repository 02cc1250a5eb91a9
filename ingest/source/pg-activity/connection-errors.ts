// What a failure to reach or sample PostgreSQL means for the sampler: a sentence a DBA can act on, and whether
// waiting can help on its own (a server restarting) or a person must act (a password, a role, a database).
import { SourceError } from '../../errors/errors.js';

/** SQLSTATEs a person must fix (PostgreSQL docs, Appendix A): waiting will not help, so they are said once, loudly. */
const NEEDS_A_PERSON: Record<string, string> = {
  '28P01': 'password authentication failed',
  '28000': 'the server refused this user (pg_hba.conf, or no such role)',
  '3D000': 'the database does not exist',
  '42501': 'the user may not read pg_stat_activity',
};
/** SQLSTATEs of a server on its way down or up: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now. */
const RESTARTING = new Set(['57P01', '57P02', '57P03']);
/** 57014 query_canceled (our statement_timeout), 55P03 lock_not_available (our lock_timeout on a catalog): a slow sample, the session stays. */
const SLOW_SAMPLE = new Set(['57014', '55P03']);

export type FailureKind = 'credentials' | 'unreachable' | 'timeout' | 'other';

export interface SamplerFailure {
  kind: FailureKind;
  error: SourceError;
}

/** `server` is the URL without a password (it never holds one: config.ts refuses it). */
export function classifyFailure(error: unknown, server: string): SamplerFailure {
  const e = error as { code?: string; message?: string };
  const message = e.message ?? String(error);
  const code = e.code ?? '';
  const why = NEEDS_A_PERSON[code];
  // node-postgres asks for a password only when the server demands one, and says so in its own words.
  const noPassword = /password must be a string|no password supplied|client password must be/i.test(message);
  if (why !== undefined || noPassword) {
    const text = noPassword
      ? `PostgreSQL at ${server} asks for a password and none is set: put it in PGPASSWORD or a ~/.pgpass line (the URL must not hold it); retrying every few seconds quietly`
      : `PostgreSQL at ${server}: ${why} (${code}: ${message}); ${code.startsWith('28') ? 'check PGPASSWORD or ~/.pgpass and pg_hba.conf' : 'check the connection URL and the role\'s rights'}; retrying quietly`;
    return { kind: 'credentials', error: new SourceError(text, server, { cause: error, permanent: true }) };
  }
  if (SLOW_SAMPLE.has(code)) {
    return { kind: 'timeout', error: new SourceError(`PostgreSQL at ${server} was too slow for a sample (statement_timeout_ms, or a catalog lock past 1 s): ${message}`, server, { cause: error }) };
  }
  const unreachable = RESTARTING.has(code) || /ECONNREFUSED|ECONNRESET|ENOENT|ETIMEDOUT|EHOSTUNREACH|terminat|Connection ended|timeout expired|not queryable/i.test(`${code} ${message}`);
  return {
    kind: unreachable ? 'unreachable' : 'other',
    error: new SourceError(`PostgreSQL at ${server} ${unreachable ? 'cannot be reached' : 'failed a sample'}: ${message}${code ? ` (${code})` : ''}`, server, { cause: error }),
  };
}

/** `host:port/db` of a connection URL, for logs and the `server` column: no user, never a password. */
export function serverName(connection: string): string {
  const u = new URL(connection);
  const host = u.hostname || u.searchParams.get('host') || 'localhost';
  return `${host}:${u.port || '5432'}${u.pathname || '/'}`;
}
