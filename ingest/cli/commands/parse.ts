// `perfpipe parse tj FILE…`: NDJSON events on stdout, ingest errors as JSON lines on stderr. Exits 0
// when the input was read, even with errors found; 2 for unusable arguments or unreadable files.
import { hostname } from 'node:os';
import { createTjParser, hourFromFileName, isValidHour, isValidTimeZone, toJsonEvent } from '../../../parsers/tj/index.js';
import type { TjEvent } from '../../../schemas/tj-event.js';
import { systemTimeZone } from '../../source/tj-source-config.js';
import { ConfigError } from '../../errors.js';
import { parseFlags } from '../args.js';
import { parseFilesToNdjson } from '../parse-files.js';
import { PARSE_PG_USAGE, parsePgCommand } from './parse-pg.js';
import { PARSE_ATOP_USAGE, parseAtopCommand } from './parse-atop.js';

const USAGE = 'perfpipe parse tj FILE… [--tz ZONE] [--hour YYMMDDHH] [--host NAME]';

export async function parseCommand(argv: string[]): Promise<number> {
  if (argv.find((a) => !a.startsWith('-')) === 'pg') return parsePgCommand(argv);
  if (argv.find((a) => !a.startsWith('-')) === 'atop') return parseAtopCommand(argv);
  const { values, positionals } = parseFlags(argv, {
    tz: { type: 'string' }, hour: { type: 'string' }, host: { type: 'string' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const [format, ...files] = positionals;
  if (format !== 'tj') throw new ConfigError(`parse: unknown format ${JSON.stringify(format ?? '')}; expected "tj", "pg" or "atop"\nusage: ${USAGE}\n       ${PARSE_PG_USAGE}\n       ${PARSE_ATOP_USAGE}`);
  if (files.length === 0) throw new ConfigError(`parse tj: no FILE given\nusage: ${USAGE}`);
  const tz = values.tz ?? systemTimeZone();
  if (!isValidTimeZone(tz)) throw new ConfigError(`--tz: ${JSON.stringify(tz)} is not an IANA zone; expected e.g. "Europe/Moscow"`);
  if (values.hour !== undefined && !isValidHour(values.hour)) throw new ConfigError(`--hour: ${JSON.stringify(values.hour)} is not yymmddhh; expected e.g. "24010415"`);
  const host = values.host ?? hostname();
  return parseFilesToNdjson(files, (file, fileKey) => {
    const hour = values.hour ?? hourFromFileName(file);
    let hourWarned = false;
    return {
      parser: createTjParser({ host, source: 'tj', file, file_key: fileKey, offset: 0, hour, tz }),
      line: (e: TjEvent) => JSON.stringify(toJsonEvent(e)),
      // Without an hour every event fails the same way: say why once, then only the error lines.
      note: (e) => {
        if (e.kind !== 'bad_header' || hour !== null) return [];
        if (hourWarned) return null;
        hourWarned = true;
        return [`perfpipe: ${file}: its name carries no hour (yymmddhh.log); pass --hour YYMMDDHH`];
      },
    };
  });
}
