// `perfpipe parse tj FILE…`: NDJSON events on stdout, ingest errors as JSON lines on stderr. Exits 0
// when the input was read, even with errors found; 2 for unusable arguments or unreadable files.
import { open, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { createTjParser, hourFromFileName, isValidHour, isValidTimeZone, toJsonEvent } from '../../../parsers/tj/index.js';
import type { TjEvent } from '../../../schemas/tj-event.js';
import type { IngestError } from '../../../schemas/ingest-error.js';
import { identifyFile } from '../../source/fingerprint.js';
import { systemTimeZone } from '../../source/tj-source-config.js';
import { ConfigError } from '../../errors.js';
import { parseFlags } from '../args.js';
import { LineWriter } from '../output.js';
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
  let unreadable = 0;
  for (const file of files) {
    try {
      const st = await stat(file);
      if (!st.isFile()) throw new Error('not a regular file');
    } catch (error) {
      process.stderr.write(`perfpipe: cannot read ${file}: ${(error as Error).message}\n`);
      unreadable++;
      continue;
    }
    const hour = values.hour ?? hourFromFileName(file);
    await parseFile(file, host, tz, hour);
  }
  return unreadable > 0 ? 2 : 0;
}

async function parseFile(file: string, host: string, tz: string, hour: string | null): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const st = await handle.stat();
    const identity = await identifyFile(handle, st.dev, st.ino, true);
    if (!identity) return; // empty or BOM only: nothing in it
    const parser = createTjParser({ host, source: 'tj', file, file_key: identity.file_key, offset: 0, hour, tz });
    const buf = Buffer.allocUnsafe(1024 * 1024);
    let pos = 0;
    let hourWarned = false;
    const stdout = new LineWriter(process.stdout);
    const stderr = new LineWriter(process.stderr);
    const emit = async (out: { events: TjEvent[]; errors: IngestError[] }): Promise<void> => {
      for (const e of out.events) await stdout.line(JSON.stringify(toJsonEvent(e)));
      for (const e of out.errors) {
        if (e.kind === 'bad_header' && hour === null) {
          if (hourWarned) continue;
          hourWarned = true;
          await stderr.line(`perfpipe: ${file}: its name carries no hour (yymmddhh.log); pass --hour YYMMDDHH`);
        }
        await stderr.line(JSON.stringify(e));
      }
    };
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      await emit(parser.push(Buffer.from(buf.subarray(0, bytesRead))));
    }
    await emit(parser.finish());
    await stdout.flush();
    await stderr.flush();
  } finally {
    await handle.close();
  }
}
