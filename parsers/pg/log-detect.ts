// Which of PostgreSQL's destinations a log's first bytes were written by, and for stderr its log_line_prefix
// (docs/pg-format.md §3, "Finding the prefix"): csvlog and jsonlog by their records, not by the file's name
// (pgBadger's `anonymize.log` is csvlog). Pure: the head of a file in, the answer out.
import type { FileContext } from '../parser.js';
import { createCsvlogReader } from './csvlog.js';
import { createJsonlogReader } from './jsonlog.js';
import { compilePrefix } from './prefix.js';
import { DETECT_MAX_LINES, detectPrefix, type UnframedLine } from './prefix-detect.js';
import type { EntryReader } from './reader.js';
import { decodeLine } from './text-decode.js';

export type { UnframedLine } from './prefix-detect.js';

/** Bytes of a file's head that detection reads: its first lines are enough (1,000–2,000 lines of a busy log), and a
 * daemon starting over a month of hourly logs reads this much of each. */
export const DETECT_HEAD_BYTES = 256 * 1024;

export interface PgLogDetection {
  /** null: neither csvlog, jsonlog nor a stderr log whose prefix could be found. */
  format: 'stderr' | 'csvlog' | 'jsonlog' | null;
  /** The stderr log's log_line_prefix; null for csvlog and jsonlog, or when none fits. */
  prefix: string | null;
  /** Lines read (non-blank, not continuation lines). */
  lines: number;
  /** Of those, lines a stderr log begins with a severity or label word after its prefix. */
  prefixed: number;
  /** Lines (stderr) or records (csvlog, jsonlog) the answer reads. */
  framed: number;
  /** The first lines it could not read (up to 5), for a message naming them. */
  unframed: UnframedLine[];
}

const CTX: FileContext = { host: '', source: 'pg', file: '', file_key: '', offset: 0 };
const RECORD_BYTES = 64 * 1024;
/** A csvlog record begins with its log_time (milliseconds and a zone) and a comma. */
const CSV_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [^,]*,/;

/** Records `reader` reads whole (with a severity) out of `bytes`, and the errors it gives. */
function readRecords(reader: EntryReader, bytes: Buffer): { records: number; errors: number } {
  const a = reader.push(bytes);
  const b = reader.finish();
  return { records: [...a.entries, ...b.entries].filter((e) => e.severity !== null && e.ts !== null).length, errors: a.errors.length + b.errors.length };
}

/** Complete lines of `head` (the last one only when `complete`), decoded, with their byte offsets; DETECT_MAX_LINES at most. */
export function headLines(head: Buffer, complete: boolean): { lines: string[]; offsets: number[]; bytes: number } {
  const lines: string[] = [];
  const offsets: number[] = [];
  let p = 0;
  while (p < head.length && lines.length < DETECT_MAX_LINES * 2) {
    const nl = head.indexOf(10, p);
    if (nl < 0 && !complete) break;
    const end = nl < 0 ? head.length : nl;
    lines.push(decodeLine(head, p, end > p && head[end - 1] === 13 ? end - 1 : end));
    offsets.push(p);
    p = nl < 0 ? head.length : nl + 1;
  }
  return { lines, offsets, bytes: p };
}

/**
 * What wrote `head` (a file's first bytes; `complete` when that is the whole file): csvlog or jsonlog when most of
 * its lines are their records, else stderr with the prefix found, else nothing.
 */
export function detectPgLog(head: Buffer, complete: boolean): PgLogDetection {
  const { lines, offsets, bytes } = headLines(head, complete);
  // Records are told apart in the first 64 KiB: a csvlog or jsonlog shows itself from its first records on.
  const recordsEnd = bytes <= RECORD_BYTES ? bytes : head.lastIndexOf(10, RECORD_BYTES) + 1;
  const first = head.subarray(0, recordsEnd > 0 ? recordsEnd : bytes);
  const nonBlank = headLines(first, first.length === bytes && complete).lines.filter((l) => l.trim() !== '').length;
  const unframed: UnframedLine[] = [];
  const start = lines.find((l) => l.trim() !== '') ?? '';
  if (nonBlank > 0 && start.trimStart().startsWith('{')) {
    const json = readRecords(createJsonlogReader(CTX), first);
    if (json.records > 0 && json.records >= 0.5 * nonBlank) return { format: 'jsonlog', prefix: null, lines: nonBlank, prefixed: 0, framed: json.records, unframed };
  }
  if (nonBlank > 0 && CSV_START.test(start)) {
    // A csv record may span lines: most records, and few errors, rather than most lines.
    const csv = readRecords(createCsvlogReader(CTX), first);
    if (csv.records > 0 && csv.records >= 2 * csv.errors) return { format: 'csvlog', prefix: null, lines: nonBlank, prefixed: 0, framed: csv.records, unframed };
  }
  const d = detectPrefix(lines, offsets);
  return { format: d.prefix === null ? null : 'stderr', prefix: d.prefix, lines: d.lines, prefixed: d.prefixed, framed: d.framed, unframed: d.unframed };
}

/** Lines among the first of `head` (not blank, not continuation lines) that `prefix` frames. */
export function framedBy(prefix: string, head: Buffer, complete: boolean): number {
  const matcher = compilePrefix(prefix);
  let framed = 0;
  let read = 0;
  for (const l of headLines(head, complete).lines) {
    if (l === '' || l.charCodeAt(0) === 9 || l.charCodeAt(0) === 32) continue;
    if (++read > DETECT_MAX_LINES) break;
    if (matcher.match(l) !== null) framed++;
  }
  return framed;
}

export type PgLogFormatName = 'stderr' | 'csvlog' | 'jsonlog';

/** How to read one log: its destination and, for stderr, its prefix; `found` when read off the file, not given. */
export interface PgLogReading {
  format: PgLogFormatName;
  prefix: string;
  found: boolean;
}

export interface PgReadingDecision {
  /** null: nothing given and nothing found fits the file. */
  reading: PgLogReading | null;
  /** What the first lines show (null when all was given and there was nothing to check). */
  detection: PgLogDetection | null;
  /** A given prefix frames only this many of the first lines, far fewer than the one they show: say so once. */
  disagreement: number | null;
}

/**
 * The reading of a log from what the user gave (`null`: not given) and the file's head: a given prefix or format
 * always wins (checked against the head when there is one); otherwise what the head shows. `defaultPrefix` is used
 * when a stderr reading has no prefix to go by.
 */
export function decideReading(
  given: { format: PgLogFormatName | null; prefix: string | null }, head: Buffer | null, complete: boolean, defaultPrefix: string,
): PgReadingDecision {
  const format = given.format ?? (given.prefix !== null ? 'stderr' : null);
  if (format !== null && format !== 'stderr') return { reading: { format, prefix: defaultPrefix, found: false }, detection: null, disagreement: null };
  if (head === null) return { reading: { format: 'stderr', prefix: given.prefix ?? defaultPrefix, found: false }, detection: null, disagreement: null };
  const detection = detectPgLog(head, complete);
  if (given.prefix !== null) {
    let disagreement: number | null = null;
    if (detection.format === 'stderr' && detection.prefix !== null && detection.prefix !== given.prefix) {
      const n = framedBy(given.prefix, head, complete);
      if (n < 0.5 * detection.framed) disagreement = n;
    }
    return { reading: { format: 'stderr', prefix: given.prefix, found: false }, detection, disagreement };
  }
  // Told stderr (or nothing): what the head shows; a stderr log needs its prefix found.
  const found = format === 'stderr' && detection.format !== 'stderr' ? null : detection.format;
  const reading: PgLogReading | null = found === null || (found === 'stderr' && detection.prefix === null) ? null
    : { format: found, prefix: detection.prefix ?? defaultPrefix, found: true };
  return { reading, detection, disagreement: null };
}
