// Why a source has no file to read, in a sentence a user can act on: the location is missing, empty, or holds files
// its name pattern does not match (issue #15: `ingest --pg DIR` over a `postgresql.log` said "0 events from 0 files").
// Files are found with the same listing each source's discovery uses, so the answer never disagrees with the reading.
import { readdir, stat } from 'node:fs/promises';
import type { Config } from '../../ingest/config/config.js';
import { listPgLogFiles, destinationPattern } from '../../ingest/source/pg/pg-log-files.js';
import { discoverTjFiles, MAX_DEPTH } from '../../ingest/source/tj/tj-source.js';
import { listExportFiles } from '../../ingest/source/apdex/apdex-source.js';
import { listAtopFiles } from '../../ingest/source/atop/atop-source.js';

type SourceConfig = Config['sources'][number];

/** Names shown of a directory's entries; a log directory can hold thousands. */
const SHOWN_NAMES = 8;

/** A sentence for a source that would read nothing now, or null when it has files (or runs atop itself). */
export async function explainNothingToRead(s: SourceConfig): Promise<string | null> {
  // Sources that run a program or query a server (atop_raw, atop_spawn, …) find their own input.
  if (s.type !== 'pg' && s.type !== 'tj' && s.type !== 'apdex' && s.type !== 'atop') return null;
  const found = s.type === 'pg' ? await listPgLogFiles(s.location, s.filename, s.format)
    : s.type === 'tj' ? await discoverTjFiles(s.location)
      : s.type === 'apdex' ? await listExportFiles(s.location, s.pattern)
        : await listAtopFiles(s.location, s.pattern);
  if (found.length > 0) return null;
  const where = `${s.type} source ${JSON.stringify(s.location)}`;
  const st = await stat(s.location).catch((error: NodeJS.ErrnoException) => error);
  if (st instanceof Error) return `${where}: ${st.code === 'ENOENT' ? 'no such file or directory' : `cannot be read (${st.code ?? st.message})`}`;
  if (!st.isDirectory()) return `${where}: neither a file nor a directory`;
  const entries = await readdir(s.location, { withFileTypes: true }).catch(() => []);
  const visible = entries.filter((e) => !e.name.startsWith('.')).map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  if (visible.length === 0) return `${where}: the directory is empty`;
  const seen = `it holds ${visible.slice(0, SHOWN_NAMES).join(', ')}${visible.length > SHOWN_NAMES ? ` and ${visible.length - SHOWN_NAMES} more` : ''}`;
  switch (s.type) {
    case 'pg':
      return `${where}: no file matches the log_filename pattern ${JSON.stringify(destinationPattern(s.filename, s.format ?? 'stderr'))}${s.format ? ` (format ${s.format})` : ''}; ${seen}. `
        + 'Give the log file itself as the location, or its name pattern (--pg-filename, or filename: in the config)';
    case 'tj':
      return `${where}: no *.log file in it or in its folders (up to ${MAX_DEPTH} levels down); ${seen}`;
    default:
      return `${where}: no file matches the pattern ${JSON.stringify(s.pattern)}; ${seen}. `
        + 'Give the file itself as the location, or its name pattern (pattern: in the config)';
  }
}

/** The sentences of every source that would read nothing now, in config order. */
export async function explainSourcesWithNothingToRead(sources: readonly SourceConfig[]): Promise<string[]> {
  const reasons = await Promise.all(sources.map(explainNothingToRead));
  return reasons.filter((r): r is string => r !== null);
}
