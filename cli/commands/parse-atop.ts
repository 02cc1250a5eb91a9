// `perfpipe parse atop FILE… [--host NAME]`: every data line of atop parseable output (`atop -P …`) as one NDJSON
// record on stdout (label, host, epoch, interval, since_boot, sample and the label's named `fields`), ingest errors
// as JSON lines on stderr. Exits 0 when the input was read, even with errors found; 2 for unusable arguments/files.
import { hostname } from 'node:os';
import { createAtopParser } from '../../parsers/atop/index.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags } from '../flags/args.js';
import { recordLines } from '../ndjson/ndjson-encoder.js';
import { OBJECT_ENCODER_CHUNK, parseFilesToNdjson } from './parse-files.js';

export const PARSE_ATOP_USAGE = 'perfpipe parse atop FILE… [--host NAME]';

export async function parseAtopCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, { host: { type: 'string' } }, PARSE_ATOP_USAGE);
  if (values.help) { process.stdout.write(`usage: ${PARSE_ATOP_USAGE}\n`); return 0; }
  const files = positionals.slice(1);
  if (files.length === 0) throw new ConfigError(`parse atop: no FILE given\nusage: ${PARSE_ATOP_USAGE}`);
  // `host` goes into origin only: each record keeps the host atop itself printed.
  const host = values.host ?? hostname();
  return parseFilesToNdjson(files, ({ file, fileKey }) => ({
    encoder: recordLines(createAtopParser({ host, source: 'atop', file, file_key: fileKey, offset: 0 })),
  }), OBJECT_ENCODER_CHUNK);
}
