// `perfpipe parse pg FILE… [--pg-prefix P] [--pg-format F] [--tz ZONE] [--host NAME]`: the entries as NDJSON on
// stdout, each with the lock-wait episodes it closed (`lock_episodes`, what pg_lock_waits stores), ingest errors
// as JSON lines on stderr. Without --pg-prefix/--pg-format each file is read as its first lines show
// (parsers/pg/log-detect.ts). Exits 0 when the input was read, even with errors found; 1 when a file fits no
// prefix (named on stderr, nothing printed for it); 2 for unusable arguments/files.
import { closeSync, openSync, readSync } from 'node:fs';
import { hostname } from 'node:os';
import { createPgParser, DEFAULT_PREFIX, type PgLogFormat } from '../../parsers/pg/index.js';
import { DETECT_HEAD_BYTES, decideReading } from '../../parsers/pg/log-detect.js';
import { unframedMessage } from '../../ingest/source/pg/pg-file-readings.js';
import { createLockEpisodeBuilder } from '../../parsers/pg/lock-episodes.js';
import { compilePrefix } from '../../parsers/pg/prefix.js';
import { isValidTimeZone } from '../../parsers/tj/index.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags } from '../flags/args.js';
import { pgLines } from '../ndjson/pg-lines.js';
import { pieceStarts, pieceThreads } from '../ndjson/file-pieces.js';
import { parsePgInPieces, pieceBytes, startsEntry } from '../ndjson/pg-pieces.js';
import { countingEntries } from '../../ingest/source/pg/prefix-watch.js';
import { OBJECT_ENCODER_CHUNK, parseFilesToNdjson } from './parse-files.js';

export const PARSE_PG_USAGE = "perfpipe parse pg FILE… [--pg-prefix '%m [%p] '] [--pg-format stderr|csvlog|jsonlog] [--tz ZONE] [--host NAME]";
const FORMATS: readonly PgLogFormat[] = ['stderr', 'csvlog', 'jsonlog'];

export async function parsePgCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    'pg-prefix': { type: 'string' }, 'pg-format': { type: 'string' }, tz: { type: 'string' }, host: { type: 'string' },
  }, PARSE_PG_USAGE);
  if (values.help) { process.stdout.write(`usage: ${PARSE_PG_USAGE}\n`); return 0; }
  const files = positionals.slice(1);
  if (files.length === 0) throw new ConfigError(`parse pg: no FILE given\nusage: ${PARSE_PG_USAGE}`);
  const givenFormat = (values['pg-format'] ?? null) as PgLogFormat | null;
  if (givenFormat !== null && !FORMATS.includes(givenFormat)) throw new ConfigError(`--pg-format: ${JSON.stringify(givenFormat)} is not a log format; expected one of stderr, csvlog, jsonlog`);
  if (values.tz !== undefined && !isValidTimeZone(values.tz)) throw new ConfigError(`--tz: ${JSON.stringify(values.tz)} is not an IANA zone; expected e.g. "Europe/Moscow"`);
  const host = values.host ?? hostname();
  const { tz } = values;
  const given = { format: givenFormat, prefix: values['pg-prefix'] ?? null };
  const perPiece = pieceBytes();
  let unframed = 0;
  const code = await parseFilesToNdjson(files, ({ file, fileKey, size }) => {
    const { reading, detection, disagreement } = decideReading(given, readHead(file, size), size <= DETECT_HEAD_BYTES, DEFAULT_PREFIX);
    if (reading === null) {
      // Nothing fits: the file's lines are not printed as orphans; the message names the lines it could not frame.
      unframed++;
      return { whole: async () => {}, afterFile: () => `perfpipe: ${detection === null ? file : unframedMessage(file, detection)}` };
    }
    const { format, prefix } = reading;
    const disagrees = disagreement === null || detection === null ? null
      : `perfpipe: ${file}: the log_line_prefix given ('${prefix}') frames ${disagreement} of its first ${detection.lines} lines; they look written with '${detection.prefix}' (${detection.framed} lines). The given one was used`;
    // A given prefix under which no line is an entry: every line was printed whole as an orphan. Say so once.
    const afterFile = (counted: { lines: number; entries: number }) => (): string | null => (format === 'stderr' && !reading.found && counted.lines > 0 && counted.entries === 0
      ? `perfpipe: ${file}: none of its ${counted.lines} lines starts with the log_line_prefix '${prefix}', so each was printed whole as an orphan line; give the server's own with --pg-prefix (psql: SHOW log_line_prefix), or leave it out to have it found`
      : disagrees);
    const options = {
      host, source: 'pg', file, file_key: fileKey, prefix, ...(tz !== undefined ? { tz } : {}),
    };
    // A large stderr log is parsed in pieces on every core (ndjson/pg-pieces.ts), with the same output.
    const threads = format === 'stderr' ? pieceThreads(size, perPiece) : 0;
    const starts = threads > 0 ? pieceStarts(file, perPiece, startsEntry(compilePrefix(prefix))) : [];
    if (starts.length > 0) {
      const counted = { lines: 0, entries: 0 };
      const job = { parser: options, chunkBytes: OBJECT_ENCODER_CHUNK };
      return {
        whole: async (print) => { Object.assign(counted, await parsePgInPieces(job, size, starts, threads, print)); },
        afterFile: afterFile(counted),
      };
    }
    const parser = countingEntries(createPgParser({ ...options, offset: 0, format }));
    return { encoder: pgLines(parser, createLockEpisodeBuilder()), afterFile: afterFile(parser) };
  }, OBJECT_ENCODER_CHUNK);
  return code !== 0 ? code : unframed > 0 ? 1 : 0;
}

/** The first DETECT_HEAD_BYTES of `file` (what the prefix is found from). */
function readHead(file: string, size: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, DETECT_HEAD_BYTES));
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
  } finally {
    closeSync(fd);
  }
}
