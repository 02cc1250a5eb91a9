// Public entry of the PostgreSQL log parser: stderr (with log_line_prefix), csvlog or jsonlog bytes in, PgEvents out.
import type { PgEvent } from '../../schemas/pg-event.js';
import type { FileContext, IncrementalParser, ParseOutput } from '../parser.js';
import { classify } from './classify.js';
import { createCsvlogReader } from './csvlog.js';
import { createJsonlogReader } from './jsonlog.js';
import { compilePrefix, type PrefixMatcher } from './prefix.js';
import { boundRecords, DEFAULT_MAX_RECORD_BYTES } from './record-bound.js';
import type { EntryReader, ReadOutput } from './reader.js';
import { createStderrFramer } from './stderr-framing.js';

export type PgLogFormat = 'stderr' | 'csvlog' | 'jsonlog';

export interface PgParserOptions extends FileContext {
  format: PgLogFormat;
  /** `log_line_prefix` of the server (stderr only); PostgreSQL's default `%m [%p] ` when absent. */
  prefix?: string;
  /** IANA `log_timezone` (e.g. `Europe/Moscow`): resolves zone abbreviations in timestamps; UTC when absent. */
  tz?: string;
  /** Longest entry kept whole, in bytes (default 32 MiB); longer ones become an `oversized_record` IngestError. */
  maxRecordBytes?: number;
  /**
   * stderr without the logging collector (Docker, journald), where processes' lines interleave: how many lines
   * back a DETAIL/HINT/CONTEXT/STATEMENT line may find the entry of its pid. Default 0 (collector: contiguous);
   * N > 0 delays each entry by N lines.
   */
  interleavedLines?: number;
}

export const DEFAULT_PREFIX = '%m [%p] ';

function stderrReader(matcher: PrefixMatcher, ctx: FileContext, o: PgParserOptions): EntryReader {
  const framer = createStderrFramer(matcher, ctx, o.tz, o.interleavedLines ?? 0);
  return {
    push: (chunk) => ({ entries: framer.push(chunk), errors: [] }),
    finish: () => ({ entries: framer.finish(), errors: [] }),
    get settled() {
      return framer.settled;
    },
  };
}

export function createPgParser(options: PgParserOptions): IncrementalParser<PgEvent> {
  const ctx: FileContext = {
    host: options.host, source: options.source, file: options.file, file_key: options.file_key, offset: options.offset,
  };
  const matcher = compilePrefix(options.prefix ?? DEFAULT_PREFIX);
  const make = (offset: number): EntryReader => {
    const at = { ...ctx, offset };
    return options.format === 'csvlog' ? createCsvlogReader(at, options.tz)
      : options.format === 'jsonlog' ? createJsonlogReader(at, options.tz)
        : stderrReader(matcher, at, options);
  };
  const reader = boundRecords(ctx, make, options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES);
  const convert = (r: ReadOutput): ParseOutput<PgEvent> => {
    for (const e of r.entries) classify(e);
    return { events: r.entries, errors: r.errors };
  };
  return {
    push: (chunk) => convert(reader.push(chunk)),
    finish: () => convert(reader.finish()),
    get settled() {
      return reader.settled;
    },
  };
}
