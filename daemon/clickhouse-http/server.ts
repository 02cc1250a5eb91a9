// ClickHouse's HTTP interface on its own port (serve.listen, 127.0.0.1:8123 by default), over the store a daemon
// holds: users and the access guard resolved once, then one handler for every request. Malformed HTTP gets a 400
// with ClickHouse's wording and the connection closes; the port keeps serving the others.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Session } from 'chdb';
import type { ServeConfig } from '../../ingest/config/serve-config.js';
import { createAccessGuard } from './access-guard.js';
import { createClickHouseHandler, type ClickHouseHandler } from './handler.js';
import { resolveUsers, type HttpUser } from './users.js';

export interface ClickHouseInterface {
  url: string;
  handler: ClickHouseHandler;
  close(): Promise<void>;
}

export interface InterfaceOptions {
  serve: ServeConfig;
  openSession: () => Session;
  /** The data directory: INSERT data and spilled results wait in `<data>/http-spool`. */
  data: string;
  /** Users resolved elsewhere (the daemon port's own); default: serve.users with their passwords read now. */
  users?: HttpUser[];
  /** The spool's sub-directory, when two interfaces share a data directory. */
  spoolName?: string;
  env?: NodeJS.ProcessEnv;
}

/** The handler alone (no port), for a daemon port that answers ClickHouse's interface beside its own paths. */
export async function createInterfaceHandler(o: InterfaceOptions): Promise<ClickHouseHandler> {
  const users = o.users ?? resolveUsers(o.serve.users, o.env);
  const probe = o.openSession();
  let functions: string[];
  let engines: string[];
  let timezone: string;
  try {
    const list = async (sql: string): Promise<string[]> => (await probe.queryAsync(sql, { format: 'TabSeparated' })).text().split('\n').filter(Boolean);
    functions = await list('SELECT name FROM system.table_functions');
    engines = await list('SELECT name FROM system.table_engines');
    timezone = (await list('SELECT timezone()'))[0] ?? 'UTC';
  } finally {
    probe.close();
  }
  return createClickHouseHandler({
    openSession: o.openSession, users, limits: o.serve.limits, guard: createAccessGuard(functions, engines),
    displayName: o.serve.display_name ?? hostname(), timezone, spoolDir: join(o.data, o.spoolName ?? 'http-spool'),
  });
}

/** ClickHouse's http_max_uri_size default: the longest request line (URL with its parameters) a server accepts. */
export const HTTP_MAX_URI_SIZE = 1 << 20;

export async function startClickHouseInterface(o: InterfaceOptions): Promise<ClickHouseInterface> {
  const handler = await createInterfaceHandler(o);
  // Clients put parameters in the URL (@clickhouse/client sends every param_<name> there): the lock resolver's batched
  // point lookups make URLs of hundreds of KiB. A server takes URIs up to http_max_uri_size (1 MiB by default);
  // Node's own limit for the request line and headers is 16 KiB, so it is raised to the server's.
  const server: Server = createServer({ keepAliveTimeout: 10_000, requestTimeout: 0, maxHeaderSize: HTTP_MAX_URI_SIZE }, (req, res) => handler.handle(req, res));
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    if (!socket.writable) { socket.destroy(); return; }
    const text = `Code: 1000. DB::Exception: Malformed HTTP request (${error.code ?? error.message}). (POCO_EXCEPTION)\n`;
    socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  });
  const cut = o.serve.listen.lastIndexOf(':');
  const host = o.serve.listen.slice(0, cut).replace(/^\[|\]$/g, '');
  const port = Number(o.serve.listen.slice(cut + 1));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    handler.close();
    throw error;
  }
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    handler,
    close: () => new Promise((resolve) => {
      server.close(() => { handler.close(); resolve(); });
      server.closeAllConnections();
    }),
  };
}
