// The contract every format parser keeps: bytes in, records out, no I/O, no clock, no logger (docs/style.md §2).
import type { IngestError } from '../schemas/ingest-error.js';

export interface ParseOutput<E> {
  events: E[];
  errors: IngestError[];
}

/**
 * An incremental parser for one file. `push` returns what became complete; `finish` flushes or reports
 * what was left open. Feeding a file in chunks split at any byte gives exactly the same output as
 * feeding it whole. A parser never throws on bad input: it returns an IngestError and goes on.
 */
export interface IncrementalParser<E> {
  /** Feeds the next bytes of the file (they follow the bytes fed before). */
  push(chunk: Buffer): ParseOutput<E>;
  /** No more bytes will come: emit the last record or report what was left open. */
  finish(): ParseOutput<E>;
  /**
   * Absolute file offset up to which every byte has been accounted for by an emitted event or error.
   * Restarting a fresh parser at this offset gives the same records as going on: a safe checkpoint.
   */
  readonly settled: number;
  /**
   * True when `push` copies what it keeps of a chunk before returning, so the caller may reuse the chunk's memory
   * (a tailer then reads into one buffer instead of allocating one per read).
   */
  readonly copiesInput?: boolean;
  /**
   * The caller read what the file holds for now: memory the parser kept to read fast may be given back (what it
   * still needs of the bytes it was fed stays). A daemon follows dozens of files and reads each now and then.
   */
  idle?(): void;
}

/** What a parser knows about the file it reads; `offset` is where its first pushed byte sits. */
export interface FileContext {
  host: string;
  source: string;
  file: string;
  file_key: string;
  offset: number;
}
