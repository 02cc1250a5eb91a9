// The perfmon family's source module, loaded once a `perfmon` entry is configured: its files found in the location,
// each tailed by the generic file source (fingerprints, checkpoints, rotation) through the perfmon parser.
import { closeSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileSource } from '../file-source.js';
import type { Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import { globRegex } from '../apdex/apdex-source.js';
import { createPerfmonParser, parseHeader, type PerfmonHeader } from './perfmon-parser.js';
import type { PerfmonSourceConfig } from './perfmon-source-config.js';

/** The location itself when it is a file; else its matching files, oldest first by name. */
export async function listFiles(s: PerfmonSourceConfig): Promise<string[]> {
  if ((await stat(s.location).catch(() => null))?.isFile()) return [s.location];
  const re = globRegex(s.pattern);
  const entries = await readdir(s.location, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && re.test(e.name)).map((e) => join(s.location, e.name)).sort();
}

export function createSource(s: PerfmonSourceConfig, ctx: SourceContext): Source {
  return createFileSource({
    ...ctx, ...ctx.read, source: s.type,
    discover: () => listFiles(s),
    watchRoots: [s.location],
    // Reading resumed past the header (a checkpoint) takes the counters from the file's first line.
    createParser: (path, identity, offset) => createPerfmonParser(
      { host: ctx.host, source: s.type, file: path, file_key: identity.file_key, offset },
      offset === 0 ? null : headerOf(path),
    ),
    isSuperseded: (path, all, idleMs) => idleMs >= s.idle_finish_s * 1000 && all.some((p) => p > path),
  });
}

function headerOf(path: string): PerfmonHeader | null {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64 * 1024);
    const n = readSync(fd, head, 0, head.length, 0);
    const end = head.subarray(0, n).indexOf(10);
    return parseHeader(head.subarray(0, end < 0 ? n : end).toString('utf8').replace(/\r$/, ''));
  } finally {
    closeSync(fd);
  }
}
