// `perfpipe parse tj FILE…`: NDJSON events on stdout, ingest errors as JSON lines on stderr. Exits 0
// when the input was read, even with errors found; 2 for unusable arguments or unreadable files.
import { hostname } from 'node:os';
import { hourFromFileName, isValidHour, isValidTimeZone } from '../../parsers/tj/index.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { parseFlags } from '../flags/args.js';
import { pieceStarts, pieceThreads } from '../ndjson/file-pieces.js';
import { createTjNdjsonEncoder } from '../ndjson/tj-ndjson.js';
import { parseTjInPieces, startsEvent, tjPieceBytes } from '../ndjson/tj-pieces.js';
import { BYTE_ENCODER_CHUNK, parseFilesToNdjson } from './parse-files.js';

const USAGE = 'perfpipe parse tj FILE… [--tz ZONE] [--hour YYMMDDHH] [--host NAME]';
/** The formats `perfpipe parse` reads (perfpipe --help names each: cli/main.test.ts). */
export const PARSE_FORMATS = ['tj', 'pg', 'atop'] as const;

export async function parseCommand(argv: string[]): Promise<number> {
  // Each format loads only its own parser: start-up is part of what a whole `parse` run costs.
  if (argv.find((a) => !a.startsWith('-')) === 'pg') return (await import('./parse-pg.js')).parsePgCommand(argv);
  if (argv.find((a) => !a.startsWith('-')) === 'atop') return (await import('./parse-atop.js')).parseAtopCommand(argv);
  const { values, positionals } = parseFlags(argv, {
    tz: { type: 'string' }, hour: { type: 'string' }, host: { type: 'string' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const [format, ...files] = positionals;
  if (format !== 'tj') {
    const [{ PARSE_PG_USAGE }, { PARSE_ATOP_USAGE }] = await Promise.all([import('./parse-pg.js'), import('./parse-atop.js')]);
    throw new ConfigError(`parse: unknown format ${JSON.stringify(format ?? '')}; expected "tj", "pg" or "atop"\nusage: ${USAGE}\n       ${PARSE_PG_USAGE}\n       ${PARSE_ATOP_USAGE}`);
  }
  if (files.length === 0) throw new ConfigError(`parse tj: no FILE given\nusage: ${USAGE}`);
  const tz = values.tz ?? (await import('../../ingest/source/tj/tj-source-config.js')).systemTimeZone();
  if (!isValidTimeZone(tz)) throw new ConfigError(`--tz: ${JSON.stringify(tz)} is not an IANA zone; expected e.g. "Europe/Moscow"`);
  if (values.hour !== undefined && !isValidHour(values.hour)) throw new ConfigError(`--hour: ${JSON.stringify(values.hour)} is not yymmddhh; expected e.g. "24010415"`);
  const host = values.host ?? hostname();
  const perPiece = tjPieceBytes();
  return parseFilesToNdjson(files, ({ file, fileKey, size }) => {
    const hour = values.hour ?? hourFromFileName(file);
    const ctx = { host, source: 'tj', file, file_key: fileKey, hour, tz };
    let hourWarned = false;
    // Without an hour every event fails the same way: say why once, then only the error lines.
    const note = (e: IngestError): string[] | null => {
      if (e.kind !== 'bad_header' || hour !== null) return [];
      if (hourWarned) return null;
      hourWarned = true;
      return [`perfpipe: ${file}: its name carries no hour (yymmddhh.log); pass --hour YYMMDDHH`];
    };
    // A large journal is parsed in pieces on every core (ndjson/tj-pieces.ts), with the same output.
    const threads = pieceThreads(size, perPiece);
    const starts = threads > 0 ? pieceStarts(file, perPiece, startsEvent) : [];
    if (starts.length > 0) {
      const job = { ctx, starts: [0, ...starts], chunkBytes: BYTE_ENCODER_CHUNK };
      return { whole: (print) => parseTjInPieces(job, threads, print), note };
    }
    return { encoder: createTjNdjsonEncoder({ ...ctx, offset: 0 }), note };
  }, BYTE_ENCODER_CHUNK);
}
