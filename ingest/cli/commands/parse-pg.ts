// `perfpipe parse pg FILE… [--pg-prefix P] [--pg-format F] [--tz ZONE] [--host NAME]`: the entries as NDJSON on
// stdout, each with the lock-wait episodes it closed (`lock_episodes`, what pg_lock_waits stores), ingest errors
// as JSON lines on stderr. Exits 0 when the input was read, even with errors found; 2 for unusable arguments/files.
import { open, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { createPgParser, type PgLogFormat } from '../../../parsers/pg/index.js';
import { createPgEpisodeStream } from '../../../parsers/pg/episode-stream.js';
import { isValidTimeZone } from '../../../parsers/tj/index.js';
import type { IngestError } from '../../../schemas/ingest-error.js';
import type { PgStreamEvent } from '../../../schemas/pg-stream-event.js';
import { identifyFile } from '../../source/fingerprint.js';
import { ConfigError } from '../../errors.js';
import { parseFlags } from '../args.js';
import { LineWriter } from '../output.js';

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
    await parseFile(file, host, format, values['pg-prefix'], values.tz);
  }
  return unreadable > 0 ? 2 : 0;
}

async function parseFile(file: string, host: string, format: PgLogFormat, prefix: string | undefined, tz: string | undefined): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const st = await handle.stat();
    const identity = await identifyFile(handle, st.dev, st.ino, true);
    if (!identity) return; // empty: nothing in it
    const parser = createPgEpisodeStream(createPgParser({
      host, source: 'pg', file, file_key: identity.file_key, offset: 0, format,
      ...(prefix !== undefined ? { prefix } : {}), ...(tz !== undefined ? { tz } : {}),
    }));
    const stdout = new LineWriter(process.stdout);
    const stderr = new LineWriter(process.stderr);
    const emit = async (out: { events: PgStreamEvent[]; errors: IngestError[] }): Promise<void> => {
      for (const e of out.events) await stdout.line(JSON.stringify(e));
      for (const e of out.errors) await stderr.line(JSON.stringify(e));
    };
    const buf = Buffer.allocUnsafe(1024 * 1024);
    for (let pos = 0; ;) {
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
