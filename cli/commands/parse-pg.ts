// `perfpipe parse pg FILE… [--pg-prefix P] [--pg-format F] [--tz ZONE] [--host NAME]`: the entries as NDJSON on
// stdout, each with the lock-wait episodes it closed (`lock_episodes`, what pg_lock_waits stores), ingest errors
// as JSON lines on stderr. Exits 0 when the input was read, even with errors found; 2 for unusable arguments/files.
import { hostname } from 'node:os';
import { createPgParser, DEFAULT_PREFIX, type PgLogFormat } from '../../parsers/pg/index.js';
import { createLockEpisodeBuilder } from '../../parsers/pg/lock-episodes.js';
import { compilePrefix } from '../../parsers/pg/prefix.js';
import { isValidTimeZone } from '../../parsers/tj/index.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags } from '../flags/args.js';
import { pgLines } from '../ndjson/pg-lines.js';
import { parsePgInPieces, pieceBytes, pieceStarts, pieceThreads } from '../ndjson/pg-pieces.js';
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
  const format = (values['pg-format'] ?? 'stderr') as PgLogFormat;
  if (!FORMATS.includes(format)) throw new ConfigError(`--pg-format: ${JSON.stringify(format)} is not a log format; expected one of stderr, csvlog, jsonlog`);
  if (values.tz !== undefined && !isValidTimeZone(values.tz)) throw new ConfigError(`--tz: ${JSON.stringify(values.tz)} is not an IANA zone; expected e.g. "Europe/Moscow"`);
  const host = values.host ?? hostname();
  const { tz } = values;
  const prefix = values['pg-prefix'];
  const perPiece = pieceBytes();
  return parseFilesToNdjson(files, ({ file, fileKey, size }) => {
    // A log written with another log_line_prefix parses without an error: every line is an orphan line, kept
    // whole. Say so, once, rather than print a file of orphans as if that were the log.
    const afterFile = (counted: { lines: number; entries: number }) => (): string | null => (format === 'stderr' && counted.lines > 0 && counted.entries === 0
      ? `perfpipe: ${file}: none of its ${counted.lines} lines starts with the log_line_prefix '${prefix ?? DEFAULT_PREFIX}'${prefix === undefined ? ' (the default)' : ''}, so each was printed whole as an orphan line; give the server's own with --pg-prefix (psql: SHOW log_line_prefix)`
      : null);
    const options = {
      host, source: 'pg', file, file_key: fileKey,
      ...(prefix !== undefined ? { prefix } : {}), ...(tz !== undefined ? { tz } : {}),
    };
    // A large stderr log is parsed in pieces on every core (ndjson/pg-pieces.ts), with the same output.
    const threads = format === 'stderr' ? pieceThreads(size, perPiece) : 0;
    const starts = threads > 0 ? pieceStarts(file, perPiece, compilePrefix(prefix ?? DEFAULT_PREFIX)) : [];
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
}
