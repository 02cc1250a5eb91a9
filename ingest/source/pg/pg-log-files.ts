// Which files of a PostgreSQL `log_directory` belong to a source: `log_filename` (strftime escapes or a glob) turned
// into a name regex, with the destination's extension rule (elog.c logfile_getname: csvlog/jsonlog replace a `.log`
// suffix, else append), and the order the collector wrote them in.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type PgFileFormat = 'stderr' | 'csvlog' | 'jsonlog';

/** strftime escapes PostgreSQL accepts in log_filename (pg_strftime), as the text each one prints. */
const ESCAPES: Readonly<Record<string, string>> = {
  Y: '\\d{4}', y: '\\d{2}', C: '\\d{2}', G: '\\d{4}', g: '\\d{2}', m: '\\d{2}', d: '\\d{2}', e: '[ \\d]\\d', H: '\\d{2}',
  I: '\\d{2}', M: '\\d{2}', S: '\\d{2}', j: '\\d{3}', u: '\\d', w: '\\d', U: '\\d{2}', V: '\\d{2}', W: '\\d{2}',
  a: '[A-Za-z]{2,}', A: '[A-Za-z]+', b: '[A-Za-z]{3,}', h: '[A-Za-z]{3,}', B: '[A-Za-z]+', p: '[AP]M', s: '\\d+',
  z: '[+-]\\d{4}', Z: '[A-Za-z0-9+-]+', n: '\\n', t: '\\t', '%': '%',
  F: '\\d{4}-\\d{2}-\\d{2}', T: '\\d{2}:\\d{2}:\\d{2}', R: '\\d{2}:\\d{2}', D: '\\d{2}/\\d{2}/\\d{2}',
};

const escapeRe = (s: string): string => s.replace(/[.+^${}()|[\]\\]/g, '\\$&');

/** The file name the server uses for `format`, given log_filename (still a pattern). */
export function destinationPattern(filename: string, format: PgFileFormat): string {
  if (format === 'stderr') return filename;
  const ext = format === 'csvlog' ? '.csv' : '.json';
  return filename.endsWith('.log') ? `${filename.slice(0, -4)}${ext}` : `${filename}${ext}`;
}

/** log_filename (strftime and/or glob) → an anchored regex over base names. Unknown escapes match anything. */
export function filenameRegex(filename: string, format: PgFileFormat): RegExp {
  const pattern = destinationPattern(filename, format);
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '%' && i + 1 < pattern.length) {
      const e = pattern[++i] as string;
      re += ESCAPES[e] ?? '.*?';
    } else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

/** Siblings of other destinations that a loose stderr pattern (`postgresql-*`) would also match. */
const OTHER_DESTINATIONS = /\.(csv|json)$/;

/**
 * The matching files of `dir`, in the order the collector wrote them: by modification time, then name (a reused
 * `%a` name is truncated and rewritten, so it sorts by its new mtime). Missing directory = no files yet. A log file
 * given as the location is read whatever its name: the user named it (`--pg /var/log/postgresql/postgresql.log`).
 * No format given: the stderr files, else the csvlog files, else the jsonlog files (a server writing several
 * destinations writes each event to each).
 */
export async function listPgLogFiles(dir: string, filename: string, format: PgFileFormat | null): Promise<string[]> {
  if ((await stat(dir).catch(() => null))?.isFile()) return [dir];
  if (format === null) {
    for (const f of ['stderr', 'csvlog', 'jsonlog'] as const) {
      const found = await listPgLogFiles(dir, filename, f);
      if (found.length > 0) return found;
    }
    return [];
  }
  const re = filenameRegex(filename, format);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const found: Array<{ path: string; mtime: number }> = [];
  for (const name of names) {
    if (!re.test(name) || (format === 'stderr' && OTHER_DESTINATIONS.test(name))) continue;
    const path = join(dir, name);
    const st = await stat(path).catch(() => null);
    if (st?.isFile()) found.push({ path, mtime: st.mtimeMs });
  }
  found.sort((a, b) => a.mtime - b.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return found.map((f) => f.path);
}
