// Why a source has no file to read, in a sentence a user can act on: the location is missing, empty, or holds files
// its name pattern does not match (issue #15: `ingest --pg DIR` over a `postgresql.log` said "0 events from 0 files").
// Files are found with the listing each source's discovery uses (its module's `listFiles`), so the answer never
// disagrees with the reading; what the last case says is its family's own wording (`unmatched` in its descriptor).
import { readdir, stat } from 'node:fs/promises';
import { FAMILIES } from '../../ingest/families/registry.js';
import type { Families } from '../../ingest/families/family-registry.js';
import type { SourceEntry } from '../../ingest/source/family.js';

/** Names shown of a directory's entries; a log directory can hold thousands. */
const SHOWN_NAMES = 8;

/** A sentence for a source that would read nothing now, or null when it has files (or runs atop itself). */
export async function explainNothingToRead(s: SourceEntry, families: Families = FAMILIES): Promise<string | null> {
  const kind = families.kind(s.type)?.kind;
  // Sources that run a program or query a server (atop_raw, atop_spawn, pg_activity) find their own input.
  if (kind?.unmatched === undefined) return null;
  const { listFiles } = await kind.load();
  if (listFiles === undefined || (await listFiles(s)).length > 0) return null;
  const where = `${s.type} source ${JSON.stringify(s.location)}`;
  const st = await stat(s.location).catch((error: NodeJS.ErrnoException) => error);
  if (st instanceof Error) return `${where}: ${st.code === 'ENOENT' ? 'no such file or directory' : `cannot be read (${st.code ?? st.message})`}`;
  if (!st.isDirectory()) return `${where}: neither a file nor a directory`;
  const entries = await readdir(s.location, { withFileTypes: true }).catch(() => []);
  const visible = entries.filter((e) => !e.name.startsWith('.')).map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  if (visible.length === 0) return `${where}: the directory is empty`;
  const seen = `it holds ${visible.slice(0, SHOWN_NAMES).join(', ')}${visible.length > SHOWN_NAMES ? ` and ${visible.length - SHOWN_NAMES} more` : ''}`;
  return `${where}: ${kind.unmatched(s, seen)}`;
}

/** The sentences of every source that would read nothing now, in config order. */
export async function explainSourcesWithNothingToRead(sources: readonly SourceEntry[], families: Families = FAMILIES): Promise<string[]> {
  const reasons = await Promise.all(sources.map((s) => explainNothingToRead(s, families)));
  return reasons.filter((r): r is string => r !== null);
}
