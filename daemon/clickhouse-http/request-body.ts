// The request body, read no further than needed: the SQL at its head (bounded by max_query_size, as ClickHouse
// bounds the text it parses), and an INSERT's data after it, streamed to a spool file with a bound of its own, never
// held in memory.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { chError } from './errors.js';

export interface BodyHead {
  /** The first bytes of the body: all of it, or `limit` bytes and a little more. */
  head: Buffer;
  /** Whether the body ended within `head`. */
  complete: boolean;
  /** The bytes after `head`. */
  rest: AsyncIterator<Buffer>;
}

/** Reads the body until it ends or `limit` bytes are in. */
export async function readHead(body: Readable, limit: number): Promise<BodyHead> {
  const it = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const parts: Buffer[] = [];
  let size = 0;
  for (;;) {
    if (size > limit) return { head: Buffer.concat(parts), complete: false, rest: it };
    const next = await it.next();
    if (next.done) return { head: Buffer.concat(parts), complete: true, rest: it };
    parts.push(next.value);
    size += next.value.length;
  }
}

/** ClickHouse's answer to a query text longer than max_query_size. */
export const queryTooLarge = (limit: number): Error => chError('QUERY_IS_TOO_LARGE', `Max query size exceeded: the query text is longer than ${limit} bytes (max_query_size)`);

/**
 * Writes `first` and then the rest of the body to `path`; more than `maxBytes` in all is refused with
 * QUERY_IS_TOO_LARGE (HTTP 413), and the file is left for the caller to remove.
 */
export async function spoolBody(first: Buffer, rest: AsyncIterator<Buffer>, path: string, maxBytes: number): Promise<number> {
  const out = createWriteStream(path);
  const failed = new Promise<never>((_resolve, reject) => out.once('error', reject));
  failed.catch(() => {});
  let size = 0;
  const put = async (chunk: Buffer): Promise<void> => {
    size += chunk.length;
    if (size > maxBytes) throw chError('QUERY_IS_TOO_LARGE', `The INSERT's data is larger than ${maxBytes} bytes (serve.limits.max_insert_bytes)`);
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
  };
  try {
    if (first.length > 0) await put(first);
    for (;;) {
      const next = await rest.next();
      if (next.done) break;
      await put(next.value);
    }
  } finally {
    await Promise.race([new Promise<void>((resolve) => out.end(() => resolve())), failed]);
  }
  return size;
}
