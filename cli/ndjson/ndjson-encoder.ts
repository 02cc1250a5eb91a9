// What `perfpipe parse` drives per file: bytes in, pieces of NDJSON out (the lines and the ingest errors of a
// stretch of the file, in file order). Any IncrementalParser is one (recordLines: atop); pg attaches lock-wait
// episodes on the way (pg-lines.ts), and TJ writes events from their bytes (tj-ndjson.ts).
import type { IncrementalParser, ParseOutput } from '../../parsers/parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { NdjsonBuffer } from './ndjson-buffer.js';

/** NDJSON lines (bytes, each ending in a line feed) and the errors found in the same stretch of the file. */
export interface NdjsonPiece {
  ndjson: Buffer;
  errors: IngestError[];
}

export interface NdjsonEncoder {
  /** Feeds the next bytes of the file; returns, in file order, the pieces that are ready (maybe of earlier bytes). */
  push(chunk: Buffer): NdjsonPiece[];
  /** No more bytes: returns every piece still to come. */
  finish(): NdjsonPiece[];
}

/** A parser's records, each printed as `JSON.stringify(record)` would print it. */
export function recordLines<E>(parser: IncrementalParser<E>): NdjsonEncoder {
  const out = new NdjsonBuffer();
  const write = (r: ParseOutput<E>): NdjsonPiece[] => {
    out.records(r.events);
    return [{ ndjson: out.take(), errors: r.errors }];
  };
  return {
    push: (chunk) => write(parser.push(chunk)),
    finish: () => write(parser.finish()),
  };
}
