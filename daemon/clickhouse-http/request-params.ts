// A request's URL parameters and headers, sorted the way ClickHouse's HTTPHandler sorts them: the reserved
// parameters it reads itself, `param_<name>` values for `{name:Type}`, `database`/`default_format` (or their
// X-ClickHouse-* headers), and everything else a setting handed to the engine, which refuses one it does not know.
import type { IncomingMessage } from 'node:http';
import { chError } from './errors.js';

/** Parameters ClickHouse reads itself and never takes for settings. */
const RESERVED = new Set([
  'query', 'compress', 'decompress', 'user', 'password', 'quota_key', 'query_id', 'stacktrace', 'buffer_size',
  'wait_end_of_query', 'session_id', 'session_timeout', 'session_check', 'client_protocol_version', 'close_session',
  'database', 'default_format', 'role',
]);

export interface Credentials {
  user: string;
  password: string;
  /** Whether the client sent any credentials at all (none = user `default` with no password, as ClickHouse does). */
  given: boolean;
}

export interface RequestParams {
  /** The `query` parameter ('' when absent). */
  query: string;
  settings: Array<[string, string]>;
  /** `param_<name>` values, as sent (ClickHouse's escaped text form). */
  queryParams: Record<string, string>;
  database: string | null;
  defaultFormat: string | null;
  queryId: string | null;
  session: { id: string; timeoutS: number | null; check: boolean; close: boolean } | null;
  /** compress=1: the answer in ClickHouse's compressed blocks. */
  compress: boolean;
  /** decompress=1: the body comes in ClickHouse's compressed blocks. */
  decompress: boolean;
  waitEndOfQuery: boolean;
  /** client_protocol_version: the revision of the Native format the client reads (0 = the plain form). */
  clientProtocolVersion: number;
  credentials: Credentials;
}

const truthy = (v: string | null): boolean => v !== null && /^(1|true|yes|on)$/i.test(v.trim());

export function readRequestParams(req: IncomingMessage, url: URL): RequestParams {
  const p = url.searchParams;
  const settings: Array<[string, string]> = [];
  const queryParams: Record<string, string> = {};
  for (const [key, value] of p) {
    if (key === '' || RESERVED.has(key)) continue;
    if (key.startsWith('param_')) { queryParams[key.slice(6)] ??= value; continue; }
    settings.push([key, value]);
  }
  const header = (name: string): string | null => {
    const v = req.headers[name];
    return typeof v === 'string' && v !== '' ? v : null;
  };
  const sessionId = p.get('session_id');
  const timeout = p.get('session_timeout');
  const protocol = p.get('client_protocol_version');
  return {
    query: p.get('query') ?? '',
    settings,
    queryParams,
    database: header('x-clickhouse-database') ?? p.get('database'),
    defaultFormat: header('x-clickhouse-format') ?? p.get('default_format'),
    queryId: p.get('query_id') ?? header('x-clickhouse-query-id'),
    session: sessionId ? { id: sessionId, timeoutS: timeout === null ? null : sessionTimeout(timeout), check: truthy(p.get('session_check')), close: truthy(p.get('close_session')) } : null,
    compress: truthy(p.get('compress')),
    decompress: truthy(p.get('decompress')),
    waitEndOfQuery: truthy(p.get('wait_end_of_query') ?? settingValue(settings, 'http_wait_end_of_query')),
    clientProtocolVersion: protocol !== null && /^\d+$/.test(protocol) ? Number(protocol) : 0,
    credentials: credentialsOf(req, p),
  };
}

export const settingValue = (settings: Array<[string, string]>, name: string): string | null =>
  settings.findLast(([k]) => k === name)?.[1] ?? null;

function sessionTimeout(text: string): number {
  if (!/^\d+$/.test(text)) throw chError('INVALID_SESSION_TIMEOUT', `Invalid session timeout: '${text}'`);
  return Number(text);
}

/**
 * Credentials the three ways clients send them; mixing two is refused, as ClickHouse does, so that a proxy's
 * headers never silently win over a client's own.
 */
function credentialsOf(req: IncomingMessage, p: URLSearchParams): Credentials {
  const headerUser = typeof req.headers['x-clickhouse-user'] === 'string' ? req.headers['x-clickhouse-user'] : '';
  const headerKey = typeof req.headers['x-clickhouse-key'] === 'string' ? req.headers['x-clickhouse-key'] : '';
  const authorization = req.headers.authorization ?? '';
  const inParams = p.has('user') || p.has('password');
  if (headerUser !== '' || headerKey !== '') {
    if (authorization !== '') throw chError('AUTHENTICATION_FAILED', 'Invalid authentication: it is not allowed to use X-ClickHouse HTTP headers and other authentication methods simultaneously');
    if (inParams) throw chError('AUTHENTICATION_FAILED', 'Invalid authentication: it is not allowed to use X-ClickHouse HTTP headers and authentication via parameters simultaneously');
    return { user: headerUser || 'default', password: headerKey, given: true };
  }
  if (authorization !== '') {
    if (inParams) throw chError('AUTHENTICATION_FAILED', 'Invalid authentication: it is not allowed to use Authorization HTTP header and authentication via parameters simultaneously');
    const [scheme, info = ''] = authorization.split(/\s+/, 2);
    if (scheme?.toLowerCase() !== 'basic') throw chError('AUTHENTICATION_FAILED', `Invalid authentication: '${scheme}' HTTP Authorization scheme is not supported`);
    const decoded = Buffer.from(info, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? { user: decoded, password: '', given: true } : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1), given: true };
  }
  return { user: p.get('user') ?? 'default', password: p.get('password') ?? '', given: inParams };
}
