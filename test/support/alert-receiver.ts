// Test fixtures for test/alert-*.test.ts: a real HTTP receiver on 127.0.0.1 that can go down and come
// back on the same port, and tj/pg segments made by the real parsers from journal and server-log text.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rowsOfRecords } from '../../ingest/families/registry.js';
import { createTjParser } from '../../parsers/tj/index.js';
import { createPgParser } from '../../parsers/pg/index.js';
import { createPgEpisodeStream } from '../../parsers/pg/episode-stream.js';
import type { Segment } from '../../ingest/bus/bus.js';

export interface Received {
  path: string;
  body: unknown;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Stops listening: connections are refused until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let server: Server | undefined;
  const listen = (port: number) => new Promise<Server>((resolve, reject) => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { connection: 'close' }).end('{}');
      });
    });
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
  server = await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stop = () => new Promise<void>((resolve) => {
    const s = server;
    server = undefined;
    if (!s) return resolve();
    s.closeAllConnections();
    s.close(() => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    down: stop,
    up: async () => { server = await listen(port); },
    close: stop,
  };
}

/** Where the next fixture segment starts: each call reads the next range of one growing file. */
let fileEnd = 0;

/** A tj segment of `text` (journal lines of hour 2026-11-30 14:00 UTC) as the source would publish it. */
export function tjSegment(text: string, host = 'srv1'): Segment {
  const file = '/tj/rphost_100/26113014.log';
  const start = fileEnd;
  const parser = createTjParser({ host, source: 'tj', file, file_key: 'k1', offset: start, hour: '26113014', tz: 'UTC' });
  const bytes = Buffer.from(text.endsWith('\n') ? text : `${text}\n`);
  const a = parser.push(bytes);
  const b = parser.finish();
  const errors = [...a.errors, ...b.errors];
  if (errors.length > 0) throw new Error(`fixture does not parse: ${errors.map((e) => e.reason).join('; ')}`);
  fileEnd = start + bytes.length;
  return { id: `${host}|k1|${start}-${fileEnd}`, family: 'tj', host, source: 'tj', file, file_key: 'k1', start, end: fileEnd, ...rowsOfRecords('tj', [...a.events, ...b.events]), errors };
}

let pgEnd = 0;

/**
 * A pg segment of `text` (stderr lines with log_line_prefix `%m [%p] %a %u@%d `) as the pg source publishes it:
 * PgEvents with the lock episodes each entry closed.
 */
export function pgSegment(text: string, host = 'db1'): Segment {
  const file = '/pg/postgresql-2026-11-30.log';
  const start = pgEnd;
  const stream = createPgEpisodeStream(createPgParser({ host, source: 'pg', file, file_key: 'p1', offset: start, format: 'stderr', prefix: '%m [%p] %a %u@%d ' }));
  const bytes = Buffer.from(text.endsWith('\n') ? text : `${text}\n`);
  const a = stream.push(bytes);
  const b = stream.finish();
  const errors = [...a.errors, ...b.errors];
  if (errors.length > 0) throw new Error(`fixture does not parse: ${errors.map((e) => e.reason).join('; ')}`);
  pgEnd = start + bytes.length;
  return { id: `${host}|p1|${start}-${pgEnd}`, family: 'pg', host, source: 'pg', file, file_key: 'p1', start, end: pgEnd, ...rowsOfRecords('pg', [...a.events, ...b.events]), errors };
}
