// A PostgreSQL `log_directory` as a file source: the files `log_filename` names for one destination, each read
// through the pg parser and the episode stream (lock waits closed in the segment that closes them).
import { createPgParser } from '../../../parsers/pg/index.js';
import { createPgEpisodeStream } from '../../../parsers/pg/episode-stream.js';
import { compilePrefix } from '../../../parsers/pg/prefix.js';
import { createFileSource, type FileSourceOptions } from '../file-source.js';
import type { Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import type { PgSourceConfig } from './pg-source-config.js';
import { createEntryBoundaryParser, filePeeker } from './pg-entry-boundary.js';
import { listPgLogFiles, type PgFileFormat } from './pg-log-files.js';
import { watchPrefix } from './prefix-watch.js';

export interface PgSourceSettings {
  location: string;
  format: PgFileFormat;
  prefix: string;
  filename: string;
  tz: string | null;
  /** A file not grown for this long is finished once a newer log file exists beside it. */
  idle_finish_ms: number;
}

/**
 * `prefixMismatch` hears of a stderr file whose first lines held no entry under `s.prefix` (prefix-watch.ts).
 */
export function pgSourceParts(s: PgSourceSettings, host: string, prefixMismatch: (path: string, lines: number) => void = () => {}): Pick<FileSourceOptions, 'discover' | 'watchRoots' | 'createParser' | 'isSuperseded'> {
  const matcher = compilePrefix(s.prefix);
  return {
    discover: () => listPgLogFiles(s.location, s.filename, s.format),
    watchRoots: [s.location],
    createParser(path, identity, offset) {
      const make = (at: number) => createPgParser({
        host, source: 'pg', file: path, file_key: identity.file_key, offset: at, format: s.format, prefix: s.prefix,
        ...(s.tz ? { tz: s.tz } : {}),
      });
      // csvlog/jsonlog records end at their own line break; only stderr entries need the next line to end.
      const parser = s.format === 'stderr'
        ? watchPrefix(createEntryBoundaryParser(make, offset, matcher, filePeeker(path, identity.dev, identity.ino)), (lines) => prefixMismatch(path, lines))
        : make(offset);
      return createPgEpisodeStream(parser);
    },
    // The collector writes only to its newest file: an older one that stopped growing was rotated away.
    isSuperseded(path, allPaths, idleMs) {
      return idleMs >= s.idle_finish_ms && allPaths.indexOf(path) < allPaths.length - 1;
    },
  };
}

/** A `pg` entry's source: what pg-family.ts loads once one is configured. */
export function createSource(s: PgSourceConfig, ctx: SourceContext): Source {
  return createFileSource({
    ...ctx, ...ctx.read, source: s.type,
    ...pgSourceParts({ ...s, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host, (path, lines) => ctx.events.prefixMismatch(path, lines, s.prefix)),
  });
}

export function listFiles(s: PgSourceConfig): Promise<string[]> {
  return listPgLogFiles(s.location, s.filename, s.format);
}
