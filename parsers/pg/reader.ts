// The common face of the three entry readers (stderr framing, csvlog, jsonlog) that index.ts drives.
import { boundedExcerpt } from '../../schemas/excerpt.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import type { FileContext } from '../parser.js';
import type { PgEvent } from '../../schemas/pg-event.js';

export interface ReadOutput {
  entries: PgEvent[];
  errors: IngestError[];
}

export interface EntryReader {
  push(chunk: Buffer): ReadOutput;
  finish(): ReadOutput;
  /** Absolute offset of the first byte not yet handed out in an event or an error. */
  readonly settled: number;
}

/**
 * A reader whose `drain` hands out the whole records of the bytes it holds: a push appends the chunk (no copy when
 * nothing is held) and drains; finish drains the rest. `settled` is where the held bytes start.
 */
export function drainingReader(
  hold: (chunk: Buffer) => void, drain: (final: boolean) => ReadOutput, settled: () => number,
): EntryReader {
  return {
    push(chunk) {
      hold(chunk);
      return drain(false);
    },
    finish: () => drain(true),
    get settled() {
      return settled();
    },
  };
}

/** The held bytes with a chunk appended; the chunk itself when none are held. */
export const appendChunk = (held: Buffer, chunk: Buffer): Buffer => (held.length === 0 ? chunk : Buffer.concat([held, chunk]));

export function ingestError(
  ctx: FileContext, offset: number, length: number, kind: string, reason: string, excerpt: string, canContinue = true,
): IngestError {
  return {
    host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset, length, kind, reason,
    excerpt: boundedExcerpt(excerpt), can_continue: canContinue,
  };
}
