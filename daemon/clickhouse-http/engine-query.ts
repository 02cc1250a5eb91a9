// Runs one statement on a prepared engine connection and hands its answer to the response. A result is streamed
// chunk by chunk (the engine's blocks, about 65,000 rows each), the next chunk fetched only once the client took the
// last: memory stays at a few chunks whatever the result's size (bench/clickhouse-http.ts measures it). With
// wait_end_of_query=1 the whole result goes to a spool file first, as ClickHouse spills it to disk, so that an error
// anywhere still gets its HTTP status.
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Session } from 'chdb';
import { chError, fromEngineError } from './errors.js';
import type { ResponseOutput } from './output.js';
import type { ResultStreaming } from './result-formats.js';

export interface Summary {
  read_rows: number;
  read_bytes: number;
  written_rows: number;
  written_bytes: number;
  result_rows: number;
  result_bytes: number;
}

export const emptySummary = (): Summary => ({ read_rows: 0, read_bytes: 0, written_rows: 0, written_bytes: 0, result_rows: 0, result_bytes: 0 });

type Params = Record<string, string | null>;

export interface ResultOptions {
  /** The output format when the statement names none. */
  format: string;
  params: Params;
  waitEnd: boolean;
  spoolPath: string;
  out: ResponseOutput;
  /** Called with the summary so far just before the first byte leaves (its header goes with it). */
  beforeFirstByte: (s: Summary) => void;
  /** Re-frames each chunk for the client (the Native format's revision), or null. */
  reframe: ((chunk: Buffer) => Buffer) | null;
  /** Rows as they come, or a header to keep only once (result-formats.ts). */
  streaming: Exclude<ResultStreaming, { kind: 'document' }>;
}

export async function runResultQuery(session: Session, sql: string, o: ResultOptions): Promise<Summary> {
  let stream;
  try {
    stream = Object.keys(o.params).length > 0 ? session.queryStreamBind(sql, o.params, { format: o.format }) : session.queryStream(sql, { format: o.format });
  } catch (error) {
    throw fromEngineError(error);
  }
  const summary = emptySummary();
  const chunks = stream[Symbol.asyncIterator]();
  let headerLength = -1;
  const dropRepeatedHeader = (raw: Buffer): Buffer => {
    if (o.streaming.kind !== 'header') return raw;
    if (headerLength < 0) { headerLength = o.streaming.headerLength(raw); return raw; }
    return raw.subarray(headerLength);
  };
  const next = async (): Promise<Buffer | null> => {
    if (o.out.clientGone) {
      stream.cancel();
      throw chError('QUERY_WAS_CANCELLED', 'the client closed the connection');
    }
    let r;
    try {
      r = await chunks.next();
    } catch (error) {
      throw fromEngineError(error);
    }
    if (r.done) return null;
    summary.result_rows += r.value.numRows;
    summary.result_bytes += r.value.numBytes;
    const bytes = r.value.raw();
    const raw = dropRepeatedHeader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return o.reframe ? o.reframe(raw) : raw;
  };
  try {
    if (o.waitEnd) {
      await spoolThenSend(next, o);
      return summary;
    }
    let chunk = await next();
    o.beforeFirstByte(summary);
    while (chunk) {
      await o.out.write(chunk);
      chunk = await next();
    }
    return summary;
  } finally {
    stream.cancel();
  }
}

/**
 * The whole result to a file, then the file to the client. The file's errors are listened to for its whole life:
 * a file stream destroyed while a write is under way (the client left, or the engine failed, just after a chunk went
 * to it) emits ERR_STREAM_DESTROYED once that write returns, and with no listener that error ended the process, every
 * client's queries with it (`npm run chaos` with store kills: a sink killed mid-query took the store down).
 */
async function spoolThenSend(next: () => Promise<Buffer | null>, o: ResultOptions): Promise<void> {
  const file = createWriteStream(o.spoolPath);
  const failed = new Promise<never>((_resolve, reject) => file.on('error', reject));
  failed.catch(() => {});
  try {
    for (let chunk = await next(); chunk; chunk = await next()) {
      if (!file.write(chunk)) await Promise.race([once(file, 'drain'), failed]);
    }
    await Promise.race([new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve()))), failed]);
    o.beforeFirstByte(emptySummary());
    await sendFile(o.spoolPath, o.out);
  } finally {
    file.destroy();
    rmSync(o.spoolPath, { force: true });
  }
}

/** The file to the client; a client that leaves cancels the request as it does mid-stream (QUERY_WAS_CANCELLED). */
async function sendFile(path: string, out: ResponseOutput): Promise<void> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    if (out.clientGone) throw chError('QUERY_WAS_CANCELLED', 'the client closed the connection');
    await out.write(chunk as Buffer);
  }
}

/**
 * A result in a document format (JSON, XML, Pretty…): the engine writes it whole to `path` (INTO OUTFILE, spliced
 * before the statement's FORMAT by the caller), then the file goes to the client.
 */
export async function runDocumentQuery(session: Session, sql: string, o: { params: Params; path: string; out: ResponseOutput; beforeFirstByte: (s: Summary) => void }): Promise<Summary> {
  try {
    const result = await runStatement(session, sql, { format: 'TabSeparated', params: o.params, out: null });
    const summary = { ...emptySummary(), read_rows: result.read_rows, read_bytes: result.read_bytes, result_rows: result.read_rows };
    o.beforeFirstByte(summary);
    await sendFile(o.path, o.out);
    return summary;
  } finally {
    rmSync(o.path, { force: true });
  }
}

/**
 * Any other statement (DDL, INSERT … SELECT, SET…): run whole; a small answer (SHOW CREATE is a result statement,
 * but a few engine statements answer text) is written as it came.
 */
export async function runStatement(session: Session, sql: string, o: { format: string; params: Params; out: ResponseOutput | null }): Promise<Summary> {
  let result;
  try {
    result = Object.keys(o.params).length > 0 ? await session.queryBindAsync(sql, o.params, { format: o.format }) : await session.queryAsync(sql, { format: o.format });
  } catch (error) {
    throw fromEngineError(error);
  }
  const bytes = result.bytes();
  if (o.out && bytes.length > 0) await o.out.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { ...emptySummary(), read_rows: result.rowsRead, read_bytes: result.bytesRead, written_rows: result.rowsRead, written_bytes: result.bytesRead };
}
