// Limits on one record of a file (issue #8): a line longer than `max_line_bytes`, or a record (an event,
// or a run of unreadable bytes) that holds more than `max_event_bytes` open without ending, is dropped as
// one IngestError and reading resumes at the next line that starts a record. The parser therefore never
// holds more than the limit of one record, whatever the file holds (binary garbage without line feeds,
// a 200 MB event). The limits are format-blind; only "does this line start a record" is asked of the format.
import { boundedExcerpt, type IngestError } from '../../schemas/ingest-error.js';

export interface RecordLimits {
  /** Bytes one record may hold open before it is dropped. */
  maxEventBytes: number;
  /** Bytes one line may hold before its line feed. */
  maxLineBytes: number;
}

export const UNLIMITED: RecordLimits = { maxEventBytes: Number.POSITIVE_INFINITY, maxLineBytes: Number.POSITIVE_INFINITY };

/** Tells whether the bytes after a line feed start a record; `head` holds up to RECORD_HEAD_BYTES of that line. */
export type RecordStartTest = (head: Buffer) => boolean;

/** Bytes of a line's head handed to a RecordStartTest: a TJ header is under 60 bytes, a pg prefix under 200. */
export const RECORD_HEAD_BYTES = 256;

/** Without a format test every line may start a record: resume at the next line. */
export const anyLine: RecordStartTest = () => true;

const LF = 0x0a;

export type LimitKind = 'line_too_long' | 'event_too_large';

/** A record found too large; `scanFrom` is where the search for the next record start begins. */
export interface Oversize {
  kind: LimitKind;
  /** Where the dropped record starts (the parser's settled offset). */
  start: number;
  /** For a long line: where that line starts. */
  lineStart: number;
  scanFrom: number;
}

/**
 * How many bytes of `chunk` (which sits at file offset `at`, the current line starting at `lineStart`) may
 * reach the parser before some line has more than `max` bytes. `cut` is chunk.length when no line does;
 * otherwise `longLineStart` says where the offending line starts. `lineStart` is the start of the last line
 * seen in the accepted bytes.
 */
export function lineBudget(chunk: Buffer, at: number, lineStart: number, max: number): { cut: number; lineStart: number; longLineStart: number | null } {
  let ls = lineStart;
  let p = 0;
  for (;;) {
    const nl = chunk.indexOf(LF, p);
    const lineEnd = nl < 0 ? chunk.length : nl; // relative
    const violation = ls + max - at; // relative index of the byte that makes the line too long
    if (lineEnd > violation) return { cut: Math.max(0, violation), lineStart: ls, longLineStart: ls };
    if (nl < 0) return { cut: chunk.length, lineStart: ls, longLineStart: null };
    ls = at + nl + 1;
    p = nl + 1;
  }
}

/** The IngestError for a dropped record [start, resume). */
export function oversizeError(
  o: { host: string; source: string; file: string; file_key: string; limits: RecordLimits },
  over: Oversize, resume: number, excerpt: Buffer, atEnd: boolean,
): IngestError {
  const what = over.kind === 'line_too_long'
    ? `a line starting at offset ${over.lineStart} is longer than max_line_bytes (${o.limits.maxLineBytes} bytes)`
    : `the record there holds more than max_event_bytes (${o.limits.maxEventBytes} bytes) without ending`;
  const then = atEnd
    ? `the ${resume - over.start} bytes up to the end of the file were skipped`
    : `${resume - over.start} bytes were skipped and reading resumed at offset ${resume}, the next line that starts a record`;
  return {
    host: o.host, source: o.source, file: o.file, file_key: o.file_key,
    offset: over.start, length: resume - over.start, kind: over.kind,
    reason: `${o.file} at offset ${over.start}: ${what}; ${then}`,
    excerpt: boundedExcerpt(excerpt.toString('utf8')), can_continue: !atEnd,
  };
}
