// A PostgreSQL `log_directory` as a file source: the files `log_filename` names for one destination, each read
// through the pg parser and the episode stream (lock waits closed in the segment that closes them), under the
// destination and log_line_prefix given or found in the file's first lines (pg-file-readings.ts).
import { createPgParser } from '../../../parsers/pg/index.js';
import { createPgEpisodeStream } from '../../../parsers/pg/episode-stream.js';
import { compilePrefix, type PrefixMatcher } from '../../../parsers/pg/prefix.js';
import { createFileSource, type FileSourceOptions } from '../file-source.js';
import type { Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import type { PgSourceConfig } from './pg-source-config.js';
import { createEntryBoundaryParser, filePeeker } from './pg-entry-boundary.js';
import { createPgFileReadings, type PgReadingNotices } from './pg-file-readings.js';
import { listPgLogFiles, type PgFileFormat } from './pg-log-files.js';
import { watchPrefix } from './prefix-watch.js';

export interface PgSourceSettings {
  location: string;
  /** null: found from each file's content. */
  format: PgFileFormat | null;
  /** null: found from each stderr file's first lines. */
  prefix: string | null;
  filename: string;
  tz: string | null;
  /** A file not grown for this long is finished once a newer log file exists beside it. */
  idle_finish_ms: number;
}

export interface PgSourceNotices extends PgReadingNotices {
  /** The first `lines` lines of a stderr file held no entry under the given prefix (prefix-watch.ts). */
  prefixMismatch(path: string, lines: number): void;
}

const quiet: PgSourceNotices = { prefixMismatch: () => {}, unframed: () => {}, disagrees: () => {} };

export function pgSourceParts(
  s: PgSourceSettings, host: string, mode: 'follow' | 'backfill' = 'follow', notices: PgSourceNotices = quiet,
): Pick<FileSourceOptions, 'discover' | 'watchRoots' | 'createParser' | 'isSuperseded'> {
  const readings = createPgFileReadings({ format: s.format, prefix: s.prefix }, mode, notices);
  const matchers = new Map<string, PrefixMatcher>();
  const matcherOf = (prefix: string): PrefixMatcher => {
    let m = matchers.get(prefix);
    if (m === undefined) matchers.set(prefix, m = compilePrefix(prefix));
    return m;
  };
  return {
    discover: async () => readings.readable(await listPgLogFiles(s.location, s.filename, s.format)),
    watchRoots: [s.location],
    createParser(path, identity, offset) {
      const format = readings.readingOf(identity.dev, identity.ino).format;
      // A young file's prefix can still be refined as it grows: each new parser (at an entry boundary) takes the latest.
      const prefix = (): string => readings.readingOf(identity.dev, identity.ino).prefix;
      const make = (at: number) => createPgParser({
        host, source: 'pg', file: path, file_key: identity.file_key, offset: at, format, prefix: prefix(),
        ...(s.tz ? { tz: s.tz } : {}),
      });
      if (format !== 'stderr') return createPgEpisodeStream(make(offset));
      // Only stderr entries need the next line to end; csvlog/jsonlog records end at their own line break.
      const parser = createEntryBoundaryParser(make, offset, () => matcherOf(prefix()), filePeeker(path, identity.dev, identity.ino));
      return createPgEpisodeStream(s.prefix === null ? parser : watchPrefix(parser, (lines) => notices.prefixMismatch(path, lines)));
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
    ...pgSourceParts({ ...s, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host, ctx.mode, {
      prefixMismatch: (path, lines) => ctx.events.prefixMismatch(path, lines, s.prefix ?? ''),
      unframed: (path, d) => ctx.events.pgLogUnframed(path, d),
      disagrees: (path, given, d, givenFramed) => ctx.events.pgPrefixDisagrees(path, given, d, givenFramed),
    }),
  });
}

export function listFiles(s: PgSourceConfig): Promise<string[]> {
  return listPgLogFiles(s.location, s.filename, s.format);
}
