// `perfpipe parse atop FILE… [--host NAME]`: every data line of atop parseable output (`atop -P …`) as one NDJSON
// record on stdout (label, host, epoch, interval, since_boot, sample and the label's named `fields`), ingest errors
// as JSON lines on stderr. Exits 0 when the input was read, even with errors found; 2 for unusable arguments/files.
import { open, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { createAtopParser } from '../../../parsers/atop/index.js';
import type { AtopRecord } from '../../../schemas/atop-record.js';
import type { IngestError } from '../../../schemas/ingest-error.js';
import { identifyFile } from '../../source/fingerprint.js';
import { ConfigError } from '../../errors.js';
import { parseFlags } from '../args.js';
import { LineWriter } from '../output.js';

export const PARSE_ATOP_USAGE = 'perfpipe parse atop FILE… [--host NAME]';

export async function parseAtopCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, { host: { type: 'string' } }, PARSE_ATOP_USAGE);
  if (values.help) { process.stdout.write(`usage: ${PARSE_ATOP_USAGE}\n`); return 0; }
  const files = positionals.slice(1);
  if (files.length === 0) throw new ConfigError(`parse atop: no FILE given\nusage: ${PARSE_ATOP_USAGE}`);
  // `host` goes into origin only: each record keeps the host atop itself printed.
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
    await parseFile(file, host);
  }
  return unreadable > 0 ? 2 : 0;
}

async function parseFile(file: string, host: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const st = await handle.stat();
    const identity = await identifyFile(handle, st.dev, st.ino, true);
    if (!identity) return; // empty: nothing in it
    const parser = createAtopParser({ host, source: 'atop', file, file_key: identity.file_key, offset: 0 });
    const stdout = new LineWriter(process.stdout);
    const stderr = new LineWriter(process.stderr);
    const emit = async (out: { events: AtopRecord[]; errors: IngestError[] }): Promise<void> => {
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
