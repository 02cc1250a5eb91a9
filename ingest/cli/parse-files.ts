// The shared loop of `perfpipe parse <format> FILE…`: each file read in 1 MiB chunks through its parser,
// records as NDJSON on stdout, ingest errors as JSON lines on stderr. Exit 0 when every file was read (even
// with errors found in it), 2 when a file could not be read.
import { open, stat } from 'node:fs/promises';
import type { IncrementalParser } from '../../parsers/parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { identifyFile } from '../source/fingerprint.js';
import { LineWriter } from './output.js';

export interface FileParsing<E> {
  parser: IncrementalParser<E>;
  /** The NDJSON line of one record. Default JSON.stringify. */
  line?(record: E): string;
  /** Lines written to stderr before an error's JSON, or null to leave the error out (say it once, not per event). */
  note?(error: IngestError): string[] | null;
}

export async function parseFilesToNdjson<E>(files: string[], start: (file: string, fileKey: string) => FileParsing<E>): Promise<number> {
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
    await parseFile(file, start);
  }
  return unreadable > 0 ? 2 : 0;
}

async function parseFile<E>(file: string, start: (file: string, fileKey: string) => FileParsing<E>): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const st = await handle.stat();
    const identity = await identifyFile(handle, st.dev, st.ino, true);
    if (!identity) return; // empty (or a BOM only): nothing in it
    const { parser, line = (e: E) => JSON.stringify(e), note } = start(file, identity.file_key);
    const stdout = new LineWriter(process.stdout);
    const stderr = new LineWriter(process.stderr);
    const emit = async (out: { events: E[]; errors: IngestError[] }): Promise<void> => {
      for (const e of out.events) await stdout.line(line(e));
      for (const e of out.errors) {
        const before = note ? note(e) : [];
        if (before === null) continue;
        for (const text of before) await stderr.line(text);
        await stderr.line(JSON.stringify(e));
      }
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
