// The SSL performance-evaluation export directory as a file source (docs/apdex.md §2.2): each `*.xml` file is
// one export batch, written once and whole, read through the APDEX parser once it is complete.
//
// Why not the line fingerprint the TJ and pg sources use: every export starts with the same `<?xml …?>` line,
// so a file rewritten in place under the same name would keep its key and be read on from the old offset. An
// export is identified by a hash of its whole content (it is small: 1000 measurements per file by default)
// plus device and inode, and only once it is complete — its closing `</Performance>` tag is there, or it has
// not changed for `idle_finish_s` (follow), or `ingest` reads what is there. New content under the same name
// gives a new key and is read from the start; the old key's records stay stored (a re-export that repeats
// measurements stores them again — a limit of per-file identity). Hashes are cached by (size, mtime), so the
// poll re-reads only files that changed.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { createApdexParser } from '../../../parsers/apdex/index.js';
import { createFileSource, type FileSourceOptions } from '../file-source.js';
import type { Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import type { ApdexSourceConfig } from './apdex-source-config.js';
import { fnv1a64Hex, type FileIdentity } from '../fingerprint.js';

export interface ApdexSourceSettings {
  location: string;
  pattern: string;
  /** Follow mode: a file without its closing tag is read once unchanged for this long. */
  idle_finish_ms: number;
}

/** Larger files are not SSL exports (≈ 200 bytes per measurement); they are hashed over this many bytes. */
const MAX_HASHED_BYTES = 256 * 1024 * 1024;
/** The closing root tag, any namespace prefix, trailing whitespace allowed. */
const CLOSED = /<\/([\w.-]+:)?Performance\s*>\s*$/;

/** A glob over base names (`*`, `?`) → an anchored, case-insensitive regex. */
export function globRegex(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * Export files of a directory (top level only), oldest first by name — the names start with the export time. An
 * export file given as the location is read whatever its name.
 */
export async function listExportFiles(location: string, pattern: string): Promise<string[]> {
  if ((await stat(location).catch(() => null))?.isFile()) return [location];
  const re = globRegex(pattern);
  let entries;
  try {
    entries = await readdir(location, { withFileTypes: true });
  } catch {
    return []; // not created yet: the export job makes it on its first run
  }
  return entries.filter((e) => e.isFile() && !e.name.startsWith('.') && re.test(e.name)).map((e) => join(location, e.name)).sort();
}

/** Whether the bytes end with the root's closing tag; UTF-16 zero bytes are dropped first (the tag is ASCII). */
export function endsWithRootClose(content: Buffer): boolean {
  const tail = content.subarray(Math.max(0, content.length - 512)).filter((b) => b !== 0);
  return CLOSED.test(Buffer.from(tail).toString('latin1'));
}

interface Known { size: number; mtimeMs: number; dev: number; ino: number; identity: FileIdentity | null; complete: boolean }

export function apdexSourceParts(
  s: ApdexSourceSettings, host: string, mode: 'follow' | 'backfill',
): Pick<FileSourceOptions, 'discover' | 'watchRoots' | 'createParser' | 'isSuperseded' | 'identify'> {
  const known = new Map<string, Known>();
  return {
    discover: () => listExportFiles(s.location, s.pattern),
    watchRoots: [s.location],
    async identify(path: string, handle: FileHandle, dev: number, ino: number): Promise<FileIdentity | null> {
      const st = await handle.stat();
      const k = known.get(path);
      const idle = Date.now() - st.mtimeMs >= s.idle_finish_ms;
      if (k && k.size === st.size && k.mtimeMs === st.mtimeMs && k.dev === dev && k.ino === ino && (k.identity || !idle)) {
        return k.identity;
      }
      const content = Buffer.alloc(Math.min(st.size, MAX_HASHED_BYTES));
      let at = 0;
      while (at < content.length) {
        const { bytesRead } = await handle.read(content, at, content.length - at, at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      const bytes = content.subarray(0, at);
      const complete = endsWithRootClose(bytes);
      const ready = bytes.length > 0 && (complete || mode === 'backfill' || idle);
      const fingerprint = fnv1a64Hex(bytes);
      const identity = ready ? { fingerprint, dev, ino, file_key: `${fingerprint}-${at.toString(36)}-${dev.toString(36)}-${ino.toString(36)}` } : null;
      known.set(path, { size: st.size, mtimeMs: st.mtimeMs, dev, ino, identity, complete });
      return identity;
    },
    createParser: (path, identity, offset) => createApdexParser({ host, source: 'apdex', file: path, file_key: identity.file_key, offset }),
    // A complete export never grows: finish it right after reading; one without its closing tag after the idle time.
    isSuperseded(path, _allPaths, idleMs) {
      return known.get(path)?.complete === true || idleMs >= s.idle_finish_ms;
    },
  };
}

/** An `apdex` entry's source: what apdex-family.ts loads once one is configured. */
export function createSource(s: ApdexSourceConfig, ctx: SourceContext): Source {
  return createFileSource({
    ...ctx, ...ctx.read, source: s.type,
    ...apdexSourceParts({ location: s.location, pattern: s.pattern, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host, ctx.mode),
  });
}

export function listFiles(s: ApdexSourceConfig): Promise<string[]> {
  return listExportFiles(s.location, s.pattern);
}
