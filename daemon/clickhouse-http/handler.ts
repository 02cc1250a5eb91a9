// ClickHouse's HTTP interface over the embedded engine: one request, one statement, answered the way a ClickHouse
// server answers it (docs/clickhouse-http.md). This module puts the steps in order; each step has its own module:
// the request's parameters and credentials, the user, the statement and its guard, the engine connection and its
// settings, the INSERT's data, the answer's bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Session } from 'chdb';
import type { ServeLimits } from '../../ingest/config/serve-config.js';
import { ClickHouseHttpError, chError, fromEngineError } from './errors.js';
import { readRequestParams, settingValue, type RequestParams } from './request-params.js';
import { authenticate, type HttpUser } from './users.js';
import { analyzeStatement, type Statement } from './statement.js';
import type { AccessGuard } from './access-guard.js';
import { applySettings, checkConstraints, limitSettings, prepareSession, readerSettings, useDatabase } from './engine-session.js';
import { createSessionStore } from './sessions.js';
import { ResponseOutput } from './output.js';
import { chooseResponseEncoding, createEncoder, decodeBody, decodedThrough } from './http-encoding.js';
import { readHead, queryTooLarge, spoolBody } from './request-body.js';
import { contentTypeOf, DEFAULT_FORMAT } from './formats.js';
import { bindableParams } from './query-params.js';
import { createQuerySlots } from './query-slots.js';
import { compressBlocks, createBlockDecoder } from './compression/compressed-block.js';
import { emptySummary, runDocumentQuery, runResultQuery, runStatement, type Summary } from './engine-query.js';
import { streamingOf } from './result-formats.js';
import { createNativeReframer } from './native-revision.js';

export interface ClickHouseHandlerOptions {
  /** A new engine connection on the store's data. */
  openSession: () => Session;
  users: readonly HttpUser[];
  limits: ServeLimits;
  guard: AccessGuard;
  /** X-ClickHouse-Server-Display-Name. */
  displayName: string;
  /** The engine's time zone (X-ClickHouse-Timezone unless a request sets session_timezone). */
  timezone: string;
  /** Where INSERT data and wait_end_of_query results wait; emptied at start. */
  spoolDir: string;
}

export interface ClickHouseHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Queries running now. */
  running(): number;
  close(): void;
}

/**
 * Statements that change data or schema, which a GET may not run: ClickHouse makes a GET read-only. A new
 * connection gets readonly=2 from the engine as well; this list covers a session a writer opened over POST.
 */
const WRITE_KINDS = new Set(['INSERT', 'CREATE', 'DROP', 'ALTER', 'TRUNCATE', 'RENAME', 'DELETE', 'UPDATE', 'OPTIMIZE', 'EXCHANGE', 'UNDROP', 'MOVE', 'GRANT', 'REVOKE', 'KILL']);

export function createClickHouseHandler(o: ClickHouseHandlerOptions): ClickHouseHandler {
  rmSync(o.spoolDir, { recursive: true, force: true });
  mkdirSync(o.spoolDir, { recursive: true });
  const sessions = createSessionStore();
  const limits = limitSettings(o.limits);
  const readerLimits = { ...limits, ...readerSettings(o.limits) };
  const runningIds = new Set<string>();
  const slots = createQuerySlots(o.limits.max_concurrent_queries, o.limits.queue_max_wait_ms);
  let spoolSeq = 0;

  /**
   * Authenticates, then answers through the output `open` makes: as on a server, an error before the user is known
   * is plain text, whatever compression the request asked for (the JDBC driver reads such an error uncompressed).
   */
  async function serve(req: IncomingMessage, p: RequestParams, open: () => ResponseOutput): Promise<void> {
    const user = authenticate(o.users, p.credentials);
    const out = open();
    const queryId = p.queryId || randomUUID();
    if (runningIds.has(queryId)) throw chError('QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING', `Query with id = ${queryId} is already running.`);
    out.header('X-ClickHouse-Query-Id', queryId);
    const releaseSlot = await slots.acquire();
    runningIds.add(queryId);
    let lease;
    try {
      lease = p.session ? sessions.acquire(user.name, p.session.id, p.session, o.openSession) : { session: o.openSession(), fresh: true, release: (_close: boolean) => {} };
    } catch (error) {
      runningIds.delete(queryId);
      releaseSlot();
      throw error;
    }
    let closeSession = !p.session || p.session.close;
    const reader = user.readonly || (!p.session && req.method === 'GET');
    try {
      if (lease.fresh) {
        // A session whose preparation failed half-way is not kept.
        closeSession = true;
        await prepareSession(lease.session, reader ? readerLimits : limits, reader);
        closeSession = !p.session || p.session.close;
      }
      checkConstraints(p.settings, reader ? readerLimits : limits);
      await applySettings(lease.session, p.settings);
      if (p.database) await useDatabase(lease.session, p.database);
      await answer(req, out, p, user, lease.session).catch((error: unknown) => {
        // The engine runs every query as its own user, `default`: name the one who asked.
        const e = fromEngineError(error);
        throw e.message.startsWith('default: ') ? new ClickHouseHttpError(e.code, `${user.name}: ${e.message.slice(9)}`, e.codeName) : e;
      });
    } finally {
      runningIds.delete(queryId);
      releaseSlot();
      if (p.session) lease.release(closeSession);
      else lease.session.close();
    }
  }

  async function answer(req: IncomingMessage, out: ResponseOutput, p: RequestParams, user: HttpUser, session: Session): Promise<void> {
    const decoded = decodeBody(req, req.headers['content-encoding'], o.limits.max_insert_bytes);
    const skipChecksums = /^(1|true)$/i.test(settingValue(p.settings, 'http_native_compression_disable_checksumming_on_decompress') ?? '');
    const body = p.decompress ? decodedThrough(decoded, createBlockDecoder(!skipChecksums)) : decoded;
    const { statement, text, data } = await readStatement(p, body);
    o.guard.check(statement, user.name);
    if (req.method === 'GET' && WRITE_KINDS.has(statement.kind)) {
      throw chError('READONLY', 'Cannot execute query in readonly mode. For queries over HTTP, method GET implies readonly. You should use method POST for modifying queries');
    }
    if (statement.insertSelectWithData) throw chError('NOT_IMPLEMENTED', 'INSERT … SELECT … FROM input() with data in the request is not supported by this server; send INSERT … FORMAT with the data instead');
    const format = statement.format ?? p.defaultFormat ?? DEFAULT_FORMAT;
    out.header('X-ClickHouse-Format', format);
    out.header('X-ClickHouse-Timezone', settingValue(p.settings, 'session_timezone') || o.timezone);
    out.header('Content-Type', contentTypeOf(format));
    const params = bindableParams(p.queryParams);
    const started = process.hrtime.bigint();
    const summaryHeader = (s: Summary): void => out.header('X-ClickHouse-Summary', JSON.stringify(summaryJson(s, process.hrtime.bigint() - started)));
    let summary: Summary;
    if (statement.insert && data) {
      summary = await insertData(session, statement, text, data, params);
    } else if (statement.returnsRows) {
      const streaming = streamingOf(format);
      if (streaming.kind === 'document') {
        // The engine writes the document whole to a spool file; the path is ours, never a client's (access-guard.ts).
        const path = nextSpool('document');
        const sql = `${text.slice(0, statement.formatStart)} INTO OUTFILE '${path}' ${statement.format ? text.slice(statement.formatStart) : `FORMAT ${format}`}`;
        summary = await runDocumentQuery(session, sql, { params, path, out, beforeFirstByte: summaryHeader });
      } else {
        summary = await runResultQuery(session, text, {
          format: p.defaultFormat ?? DEFAULT_FORMAT, params, waitEnd: p.waitEndOfQuery, spoolPath: nextSpool('result'), out, beforeFirstByte: summaryHeader, streaming,
          reframe: /^native$/i.test(format) && p.clientProtocolVersion > 0 ? createNativeReframer(p.clientProtocolVersion) : null,
        });
      }
    } else {
      summary = await runStatement(session, text, { format: p.defaultFormat ?? DEFAULT_FORMAT, params, out });
    }
    summaryHeader(summary);
    await out.end();
  }

  /**
   * The statement, from the `query` parameter or the body's head. For an INSERT with data, the data is what follows
   * the statement: the body (after a `query` parameter) or the rest of it; any other statement is read whole.
   */
  async function readStatement(p: RequestParams, body: Readable): Promise<{ statement: Statement; text: string; data: { first: Buffer; rest: AsyncIterator<Buffer> } | null }> {
    const max = o.limits.max_query_size;
    if (p.query !== '') {
      if (Buffer.byteLength(p.query) > max) throw queryTooLarge(max);
      const joined = `${p.query}\n`;
      const statement = analyzeStatement(joined);
      if (statement.insert) {
        const it = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        return { statement, text: joined, data: { first: Buffer.from(joined.slice(statement.insert.dataStart)), rest: it } };
      }
      const head = await readHead(body, max);
      if (!head.complete || Buffer.byteLength(joined) + head.head.length > max) throw queryTooLarge(max);
      const text = head.head.length > 0 ? joined + head.head.toString('utf8') : p.query;
      return { statement: head.head.length > 0 ? analyzeStatement(text) : statement, text, data: null };
    }
    const head = await readHead(body, max);
    // Offsets are bytes: the head is read as latin1 (one character per byte), SQL keywords being ASCII.
    const statement = analyzeStatement(head.head.toString('latin1'));
    if (statement.insert) {
      return { statement, text: head.head.subarray(0, statement.insert.dataStart).toString('utf8'), data: { first: head.head.subarray(statement.insert.dataStart), rest: head.rest } };
    }
    if (!head.complete) throw queryTooLarge(max);
    if (statement.kind === '') throw chError('SYNTAX_ERROR', 'Empty query');
    return { statement: analyzeStatement(head.head.toString('utf8')), text: head.head.toString('utf8'), data: null };
  }

  /**
   * INSERT … FORMAT x with its data: the data goes to a spool file and the engine reads it with FROM INFILE, the
   * statement's own head and SETTINGS kept (docs/clickhouse-http.md §4).
   */
  async function insertData(session: Session, statement: Statement, text: string, data: { first: Buffer; rest: AsyncIterator<Buffer> }, params: Record<string, string | null>): Promise<Summary> {
    const insert = statement.insert;
    if (!insert) throw new Error('insertData without an INSERT');
    const path = nextSpool('insert');
    try {
      const bytes = await spoolBody(data.first, data.rest, path, o.limits.max_insert_bytes);
      const sql = `${text.slice(0, insert.headEnd).trimEnd()} FROM INFILE '${path}' ${insert.settingsClause} FORMAT ${insert.format}`;
      const rows = bytes === 0 ? 0 : (await runStatement(session, sql, { format: DEFAULT_FORMAT, params, out: null })).read_rows;
      return { ...emptySummary(), read_rows: rows, read_bytes: bytes, written_rows: rows, written_bytes: bytes };
    } finally {
      rmSync(path, { force: true });
    }
  }

  const nextSpool = (what: string): string => join(o.spoolDir, `${process.pid}-${++spoolSeq}.${what}`);

  return {
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      res.setHeader('X-ClickHouse-Server-Display-Name', o.displayName);
      if ((req.method === 'GET' || req.method === 'HEAD') && (url.pathname === '/ping' || url.pathname === '/replicas_status' || (url.pathname === '/' && !url.searchParams.has('query')))) {
        res.setHeader('Content-Type', 'text/html; charset=UTF-8');
        res.end('Ok.\n');
        return;
      }
      let out: ResponseOutput | null = null;
      void (async () => {
        let p: RequestParams;
        try {
          if (req.method !== 'GET' && req.method !== 'POST') throw chError('NOT_IMPLEMENTED', `HTTP method ${req.method} is not supported; use GET or POST`);
          if (req.method === 'POST' && req.headers['content-length'] === undefined && !/chunked/i.test(req.headers['transfer-encoding'] ?? '')) {
            throw chError('HTTP_LENGTH_REQUIRED', 'The Transfer-Encoding is not chunked and there is no Content-Length header for POST request');
          }
          p = readRequestParams(req, url);
          const httpCompression = settingValue(p.settings, 'enable_http_compression');
          const encoding = httpCompression !== null && /^(1|true)$/i.test(httpCompression) ? chooseResponseEncoding(req.headers['accept-encoding']) : null;
          const level = Number(settingValue(p.settings, 'http_zlib_compression_level') ?? 3) || 3;
          const compress = p.compress;
          await serve(req, p, () => {
            out = new ResponseOutput(res, { frame: compress ? compressBlocks : null, encoding: encoding ? { name: encoding, stream: createEncoder(encoding, level) } : null });
            return out;
          });
        } catch (error) {
          const e = fromEngineError(error);
          // The rest of the body is read and dropped before the answer, as ClickHouse does, so that a client still
          // sending gets it (one that is refused mid-upload sees a broken pipe, not the error); past DRAIN_BYTES the
          // connection is closed instead of reused with a body read half-way.
          if (!req.complete && !res.headersSent && !(await drainBody(req))) res.setHeader('Connection', 'close');
          out ??= new ResponseOutput(res, { frame: null, encoding: null });
          await out.fail(e).catch(() => res.destroy());
        }
      })();
    },
    running: () => runningIds.size,
    close() {
      sessions.closeAll();
      rmSync(o.spoolDir, { recursive: true, force: true });
    },
  };
}

/** Bytes of a refused request's body read and dropped before the error is sent. */
const DRAIN_BYTES = 64 * 1024 * 1024;

/** Reads the rest of the body into nothing; false when it is longer than DRAIN_BYTES or does not end in 30 s. */
function drainBody(req: IncomingMessage): Promise<boolean> {
  req.unpipe();
  // An abandoned reader (an async iterator) listens for 'readable', which would keep the stream from flowing.
  req.removeAllListeners('readable');
  return new Promise((resolve) => {
    let seen = 0;
    const timer = setTimeout(() => done(false), 30_000);
    const done = (complete: boolean): void => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      resolve(complete);
    };
    const onData = (d: Buffer): void => { seen += d.length; if (seen > DRAIN_BYTES) done(false); };
    req.on('data', onData);
    req.once('end', () => done(true));
    req.once('close', () => done(req.complete));
    req.resume();
  });
}

function summaryJson(s: Summary, elapsedNs: bigint): Record<string, string> {
  return {
    read_rows: String(s.read_rows), read_bytes: String(s.read_bytes), written_rows: String(s.written_rows), written_bytes: String(s.written_bytes),
    total_rows_to_read: '0', result_rows: String(s.result_rows), result_bytes: String(s.result_bytes), elapsed_ns: String(elapsedNs),
  };
}
