// The daemon's local HTTP port: /health, /ready, /metrics (Prometheus) and POST /sql, which runs a
// query through the daemon's own ClickHouse client (the only way to reach the embedded engine while
// the daemon holds it). Binds to 127.0.0.1 by default; /sql always requires a bearer token. Bound beyond
// loopback it refuses to start without PERFPIPE_HTTP_TOKEN, and then /metrics requires a token too (it
// names files and hosts); /health and /ready stay open for probes.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { ClickHouseClient, DataFormat } from '@clickhouse/client';
import type { Metrics } from '../../ingest/observe/metrics.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../../ingest/store/query.js';
import { ConfigError } from '../../ingest/errors/errors.js';

export interface HttpServerOptions {
  listen: string;
  /** The daemon's own token (written to daemon.json for `perfpipe sql` on this machine). */
  token: string;
  client: () => ClickHouseClient | null;
  metrics: Metrics;
  ready: () => boolean;
  /** Where PERFPIPE_HTTP_TOKEN is read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The shared token an operator sets for a port bound beyond loopback (Prometheus, remote `sql`). */
export const HTTP_TOKEN_ENV = 'PERFPIPE_HTTP_TOKEN';
const MIN_TOKEN_LENGTH = 16;

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

function splitListen(listen: string): { host: string; port: number } {
  const cut = listen.lastIndexOf(':');
  return { host: listen.slice(0, cut).replace(/^\[|\]$/g, ''), port: Number(listen.slice(cut + 1)) };
}

async function body(req: IncomingMessage, limit = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('query text larger than 1 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export async function startHttpServer(o: HttpServerOptions): Promise<RunningServer> {
  const { host, port } = splitListen(o.listen);
  const exposed = !isLoopback(host);
  const shared = (o.env ?? process.env)[HTTP_TOKEN_ENV] ?? '';
  if (exposed && shared.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(`listen ${o.listen} is beyond loopback: set ${HTTP_TOKEN_ENV} (at least ${MIN_TOKEN_LENGTH} characters) in the environment; /metrics and /sql then require "Authorization: Bearer <token>"`);
  }
  const authorized = (req: IncomingMessage): boolean =>
    tokenMatches(req.headers.authorization, o.token) || (shared.length >= MIN_TOKEN_LENGTH && tokenMatches(req.headers.authorization, shared));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    void (async () => {
      try {
        if (req.method === 'GET' && url.pathname === '/health') { res.end('ok\n'); return; }
        if (req.method === 'GET' && url.pathname === '/ready') {
          res.statusCode = o.ready() ? 200 : 503;
          res.end(o.ready() ? 'ready\n' : 'starting\n');
          return;
        }
        if (req.method === 'GET' && url.pathname === '/metrics') {
          if (exposed && !authorized(req)) { res.statusCode = 401; res.end('token required\n'); return; }
          res.setHeader('content-type', 'text/plain; version=0.0.4');
          res.end(o.metrics.render());
          return;
        }
        if (req.method === 'POST' && url.pathname === '/sql') {
          if (!authorized(req)) { res.statusCode = 401; res.end('token required\n'); return; }
          const client = o.client();
          if (!client) { res.statusCode = 503; res.end('store not open yet\n'); return; }
          const format = (url.searchParams.get('format') ?? 'table') as OutputFormat;
          if (!(format in OUTPUT_FORMATS)) { res.statusCode = 400; res.end(`unknown format ${format}\n`); return; }
          const query = await body(req);
          // `param_<name>=value` binds `{name:Type}` in the query, as ClickHouse's own HTTP interface does.
          const query_params = Object.fromEntries([...url.searchParams].filter(([k]) => k.startsWith('param_')).map(([k, v]) => [k.slice(6), v]));
          const result = await client.exec({ query, query_params, clickhouse_settings: { default_format: OUTPUT_FORMATS[format] as DataFormat, output_format_pretty_color: 0 } });
          res.setHeader('content-type', 'text/plain; charset=utf-8');
          for await (const chunk of result.stream) res.write(chunk);
          res.end();
          return;
        }
        res.statusCode = 404;
        res.end('not found\n');
      } catch (error) {
        if (!res.headersSent) res.statusCode = 400;
        res.end(`${(error as Error).message}\n`);
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}
