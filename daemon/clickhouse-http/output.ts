// The answer's bytes on their way to the client: ClickHouse's compressed blocks when the client asked for
// compress=1, then the HTTP Content-Encoding it accepts when enable_http_compression is on, with the socket's
// backpressure respected at every write (a slow client slows the query, never grows the daemon's memory). Headers go
// with the first byte, so an error found before it gets its own HTTP status; one found after it is written inside
// the body between `__exception__` markers, and the response is left unterminated so that no client takes the
// truncated result for a whole one (ClickHouse's WriteBufferFromHTTP1ServerResponse; docs/clickhouse-http.md §6).
import type { ServerResponse } from 'node:http';
import { randomInt } from 'node:crypto';
import type { Transform } from 'node:stream';
import { ErrorCode, httpStatusOf, type ClickHouseHttpError } from './errors.js';

const EXCEPTION_MARKER = '__exception__';
const MAX_EXCEPTION_BYTES = 16 * 1024;

/** ClickHouse's exception tag: 16 random lower-case letters, sent in X-ClickHouse-Exception-Tag on every answer. */
function exceptionTag(): string {
  let tag = '';
  for (let i = 0; i < 16; i++) tag += String.fromCharCode(97 + randomInt(26));
  return tag;
}

export interface OutputOptions {
  /** Frames plain bytes into ClickHouse's compressed blocks (compress=1); null sends them as they are. */
  frame: ((chunk: Buffer) => Buffer) | null;
  /** An HTTP Content-Encoding stream and its name, or null. */
  encoding: { name: string; stream: Transform } | null;
}

export class ResponseOutput {
  readonly tag = exceptionTag();
  private started = false;
  private gone = false;
  private readonly sink: NodeJS.WritableStream;

  constructor(private readonly res: ServerResponse, private readonly o: OutputOptions) {
    this.sink = o.encoding ? o.encoding.stream : res;
    if (o.encoding) o.encoding.stream.pipe(res);
    res.setHeader('X-ClickHouse-Exception-Tag', this.tag);
    res.once('close', () => { if (!res.writableFinished) this.gone = true; });
  }

  /** The client closed the connection before the answer ended. */
  get clientGone(): boolean {
    return this.gone || this.res.destroyed;
  }

  get headersSent(): boolean {
    return this.started;
  }

  /** Sets a header while none has been sent; later calls are ignored, as a server's headers are gone by then. */
  header(name: string, value: string): void {
    if (!this.started) this.res.setHeader(name, value);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    if (this.o.encoding) this.res.setHeader('Content-Encoding', this.o.encoding.name);
  }

  /** Writes and resolves once the bytes may be followed by more (the socket drained, or the client left). */
  async write(chunk: Buffer): Promise<void> {
    if (chunk.length === 0 || this.res.destroyed) return;
    this.start();
    const bytes = this.o.frame ? this.o.frame(chunk) : chunk;
    if (this.sink.write(bytes)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => { this.sink.removeListener('drain', done); this.res.removeListener('close', done); resolve(); };
      this.sink.once('drain', done);
      this.res.once('close', done);
    });
  }

  async end(): Promise<void> {
    this.start();
    // A response whose client already left has no 'close' or 'finish' to come: waiting for one held the request,
    // and its query slot, for ever.
    if (this.clientGone) return;
    await new Promise<void>((resolve) => {
      this.res.once('close', resolve);
      this.res.once('finish', resolve);
      this.sink.end();
    });
  }

  /**
   * Answers with the error. Before any byte: its HTTP status, X-ClickHouse-Exception-Code and the text as the body.
   * After: the text inside the body between markers, and the connection closed without the last chunk.
   */
  async fail(error: ClickHouseHttpError): Promise<void> {
    if (this.res.destroyed) return;
    const text = `${error.text}\n`;
    if (!this.started) {
      this.res.statusCode = httpStatusOf(error.code);
      this.res.setHeader('X-ClickHouse-Exception-Code', String(error.code));
      if (error.code === ErrorCode.REQUIRED_PASSWORD) this.res.setHeader('WWW-Authenticate', 'Basic realm="ClickHouse server HTTP API"');
      this.res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
      await this.write(Buffer.from(text));
      await this.end();
      return;
    }
    const room = MAX_EXCEPTION_BYTES - (2 + EXCEPTION_MARKER.length + 2 + 16 + 2 + 8 + 1 + 16 + 2 + EXCEPTION_MARKER.length + 2);
    const message = Buffer.from(text).subarray(0, room);
    await this.write(Buffer.concat([
      Buffer.from(`\r\n${EXCEPTION_MARKER}\r\n${this.tag}\r\n`), message, Buffer.from(`${message.length} ${this.tag}\r\n${EXCEPTION_MARKER}\r\n`),
    ]));
    await this.flushEncoding();
    // No terminating chunk: the client sees a broken response, never a complete short one.
    this.res.socket?.end();
    this.res.socket?.destroySoon?.();
  }

  private flushEncoding(): Promise<void> {
    const stream = this.o.encoding?.stream as (Transform & { flush?: (cb: () => void) => void }) | undefined;
    if (!stream?.flush) return Promise.resolve();
    return new Promise((resolve) => stream.flush?.(() => resolve()));
  }
}
