// atop parseable output as a file source: one file that `atop -P … INTERVAL >> FILE` appends to, or the matching
// files of a directory (one per run or per day), each read through the atop parser with records held to whole
// samples (atop-samples.ts), so every segment ends at a SEP.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createAtopParser } from '../../../parsers/atop/index.js';
import { createFileSource, type FileSourceOptions } from '../file-source.js';
import type { Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import type { AtopSourceConfig } from './atop-source-config.js';
import { globRegex } from '../apdex/apdex-source.js';
import { holdUntilSampleEnd } from './atop-samples.js';

export interface AtopSourceSettings {
  location: string;
  pattern: string;
  /** A file not grown for this long is finished once a newer matching file exists beside it. */
  idle_finish_ms: number;
}

/** The location itself when it is a file; else its matching files, oldest first by modification time. */
export async function listAtopFiles(location: string, pattern: string): Promise<string[]> {
  const st = await stat(location).catch(() => null);
  if (st === null) return []; // not created yet: atop makes it on its first sample
  if (st.isFile()) return [location];
  const re = globRegex(pattern);
  const entries = await readdir(location, { withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile() && !e.name.startsWith('.') && re.test(e.name)).map((e) => join(location, e.name));
  const timed = await Promise.all(files.map(async (f) => ({ f, t: (await stat(f).catch(() => null))?.mtimeMs ?? 0 })));
  return timed.sort((a, b) => a.t - b.t || (a.f < b.f ? -1 : 1)).map((x) => x.f);
}

export function atopSourceParts(s: AtopSourceSettings, host: string): Pick<FileSourceOptions, 'discover' | 'watchRoots' | 'createParser' | 'isSuperseded'> {
  return {
    discover: () => listAtopFiles(s.location, s.pattern),
    // chokidar watches a file or a directory alike; it only wakes the loop, the poll finds the rest.
    watchRoots: [s.location],
    createParser: (path, identity, offset) =>
      holdUntilSampleEnd(createAtopParser({ host, source: 'atop', file: path, file_key: identity.file_key, offset })),
    // atop appends to one file at a time: an older one that stopped growing belongs to a finished run.
    isSuperseded(path, allPaths, idleMs) {
      return idleMs >= s.idle_finish_ms && allPaths.indexOf(path) < allPaths.length - 1;
    },
  };
}

/** An `atop` entry's source: what atop-family.ts loads once one is configured. */
export function createSource(s: AtopSourceConfig, ctx: SourceContext): Source {
  return createFileSource({
    ...ctx, ...ctx.read, source: s.type,
    ...atopSourceParts({ location: s.location, pattern: s.pattern, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host),
  });
}

export function listFiles(s: AtopSourceConfig): Promise<string[]> {
  return listAtopFiles(s.location, s.pattern);
}
