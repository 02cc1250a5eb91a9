// The technological journal as a file source: `<location>/<process>_<pid>/<yymmddhh>.log` (default
// placement) and `<location>/*.log` (plain placement), docs/tj-format.md §1 and §7.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hourFromFileName } from '../../../parsers/tj/index.js';
import { createTjRowParser } from './tj-row-encoder.js';
import { createTjRowBuilder, type TjRowBuilder } from './tj-rows.js';
import { createCallAccountBook } from './call-split-rows.js';
import { processFromPath } from './tj-event-to-row.js';
import { matchHeader } from '../../../parsers/tj/header.js';
import { createFileSource, type FileSourceOptions } from '../file-source.js';
import type { Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import { MAX_DEPTH, type TjSourceConfig } from './tj-source-config.js';
import { tjLocationZone } from './tj-zone.js';

export interface TjSourceSettings {
  location: string;
  tz: string;
  /** `yymmddhh` for files whose name carries no hour. */
  hour: string | null;
  /** A file not grown for this long is finished once a newer hour file exists beside it. */
  idle_finish_ms: number;
}

/**
 * Lists TJ files under a location, oldest hour first: `*.log` files at any depth up to MAX_DEPTH (the
 * default placement puts them one level down, plain placement at the top; copies of several servers'
 * journals are often one or two levels deeper). Hidden folders are skipped. A file given as the location is
 * read whatever its name (its hour from the name, else `hour`).
 */
export async function discoverTjFiles(location: string): Promise<string[]> {
  if ((await stat(location).catch(() => null))?.isFile()) return [location];
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // the platform deleted the folder while we listed it, or it is not readable
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      let isFile = entry.isFile();
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        const target = await stat(full).catch(() => null);
        isFile = target?.isFile() ?? false;
        isDir = target?.isDirectory() ?? false;
      }
      if (isFile && entry.name.endsWith('.log')) found.push(full);
      else if (isDir && depth < MAX_DEPTH) await walk(full, depth + 1);
    }
  };
  await walk(location, 0);
  // Keys computed once per file, not per comparison: a location with thousands of files is listed every poll.
  const keyed = found.map((p) => ({ p, key: `${hourFromFileName(p) ?? ''}|${p}` }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.p);
}

export function tjSourceParts(
  s: TjSourceSettings, host: string,
): Pick<FileSourceOptions, 'discover' | 'watchRoots' | 'createParser' | 'createRows' | 'isSuperseded' | 'isRecordStart' | 'sequenceOf'> {
  // One accountant per process folder for the source's life: a call's account survives the switch to the next hour file.
  const book = createCallAccountBook();
  return {
    discover: () => discoverTjFiles(s.location),
    watchRoots: [s.location],
    // Rows are encoded straight from the file's bytes into the tail's builder (tj-row-encoder.ts).
    createRows: () => createTjRowBuilder(book),
    // A process folder's hour files are one stream: its accountant must see them in order (docs/tj-format.md §4.3).
    // Plain placement (no `<process>_<pid>` folder) keeps every file a stream of its own.
    sequenceOf: (path) => (processFromPath(path) === null ? path : dirname(path)),
    createParser: (path, identity, offset, rows) => createTjRowParser({
      host, source: 'tj', file: path, file_key: identity.file_key, offset,
      hour: hourFromFileName(path) ?? s.hour, tz: s.tz,
    }, rows as TjRowBuilder),
    // After an oversized event, reading resumes at the next line with an event header. A quoted value
    // may hold such a line (the framer knows, this test does not): then that line's remainder is garbage.
    isRecordStart: (head) => matchHeader(head, 0, head.length, true) >= 0,
    isSuperseded(path, allPaths, idleMs) {
      if (idleMs < s.idle_finish_ms) return false;
      const dir = dirname(path);
      const name = basename(path);
      return allPaths.some((p) => dirname(p) === dir && basename(p) > name);
    },
  };
}

/** A `tj` entry's source: what tj-family.ts loads once one is configured. */
export function createSource(s: TjSourceConfig, ctx: SourceContext): Source {
  return createFileSource({
    ...ctx, ...ctx.read, source: s.type,
    ...tjSourceParts({ location: s.location, tz: s.tz ?? tjLocationZone(s.location).zone, hour: s.hour, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host),
  });
}

export function listFiles(s: TjSourceConfig): Promise<string[]> {
  return discoverTjFiles(s.location);
}
