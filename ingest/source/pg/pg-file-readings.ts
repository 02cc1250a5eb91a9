// How each file of a PostgreSQL log source is read: the destination and log_line_prefix the user gave, or what the
// file's first lines show (parsers/pg/log-detect.ts, docs/pg-format.md §3 "Finding the prefix"). A file no prefix
// fits is left unread and said once, so its lines are never stored as orphans and a second run with --pg-prefix
// still finds them unread; a given prefix the first lines disagree with is said once and still used.
import { open, stat } from 'node:fs/promises';
import { DETECT_HEAD_BYTES, decideReading, type PgLogDetection, type PgLogReading } from '../../../parsers/pg/log-detect.js';
import { DEFAULT_PREFIX, type PgLogFormat } from '../../../parsers/pg/index.js';

export interface PgReadingNotices {
  /** No destination or prefix fits the file's first lines: it is not read. */
  unframed(path: string, detection: PgLogDetection): void;
  /** The given prefix frames `givenFramed` of the first lines, the prefix they show (`detected`) frames `detection.framed`. */
  disagrees(path: string, given: string, detection: PgLogDetection, givenFramed: number): void;
}

export interface PgFileReadings {
  /** The files of `paths` that can be read, each with its reading decided; the others wait or are said once. */
  readable(paths: string[]): Promise<string[]>;
  /** How to read the file `dev:ino` (the latest decision: a young file's can still change as it grows). */
  readingOf(dev: number, ino: number): PgLogReading;
}

/** First lines read before a young file's decision is final in follow mode (a backfill decides on what there is). */
const FINAL_LINES = 200;

interface Decided {
  size: number;
  final: boolean;
  reading: PgLogReading | null;
  /** The given prefix's disagreement with the first lines was said. */
  said?: boolean;
}

async function readHead(path: string, size: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, DETECT_HEAD_BYTES));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export function createPgFileReadings(
  given: { format: PgLogFormat | null; prefix: string | null }, mode: 'follow' | 'backfill', notices: PgReadingNotices,
): PgFileReadings {
  const byFile = new Map<string, Decided>();
  const fallback = decideReading(given, null, false, DEFAULT_PREFIX).reading as PgLogReading;
  const told = given.format !== null && given.format !== 'stderr';

  async function decide(path: string, size: number, previous: Decided | undefined): Promise<Decided> {
    // csvlog or jsonlog as told: nothing to look at. A given prefix is checked once against the first lines.
    if (told) return { size, final: true, reading: fallback };
    const complete = mode === 'backfill' && size <= DETECT_HEAD_BYTES;
    const { reading, detection, disagreement } = decideReading(given, await readHead(path, size), complete, DEFAULT_PREFIX);
    if (given.prefix !== null) {
      const say = detection !== null && disagreement !== null && !previous?.said;
      if (say) notices.disagrees(path, given.prefix, detection, disagreement);
      const enough = mode === 'backfill' || size >= DETECT_HEAD_BYTES || (detection?.lines ?? 0) >= FINAL_LINES;
      return { size, final: enough || say, reading, said: say || (previous?.said ?? false) };
    }
    // An empty file says nothing yet (and a backfill has nothing to read in it).
    if (detection === null || detection.lines === 0) return { size, final: false, reading: null };
    const final = mode === 'backfill' || size >= DETECT_HEAD_BYTES || detection.lines >= FINAL_LINES;
    if (reading === null && final) notices.unframed(path, detection);
    return { size, final, reading };
  }

  return {
    async readable(paths) {
      const out: string[] = [];
      for (const path of paths) {
        const st = await stat(path).catch(() => null);
        if (st === null) continue;
        const key = `${st.dev}:${st.ino}`;
        let d = byFile.get(key);
        if (d === undefined || (!d.final && d.size !== st.size)) {
          try {
            d = await decide(path, st.size, d);
          } catch {
            continue; // unreadable now: the file source reports read failures when it opens the file
          }
          byFile.set(key, d);
        }
        if (d.reading !== null) out.push(path);
      }
      return out;
    },
    readingOf(dev, ino) {
      return byFile.get(`${dev}:${ino}`)?.reading ?? fallback;
    },
  };
}

/** The sentence for a PostgreSQL log that is not read: which lines could not be framed, and what to do. */
export function unframedMessage(path: string, d: PgLogDetection): string {
  const shown = d.unframed.map((u) => `line ${u.line}: ${JSON.stringify(u.text.length > 120 ? `${u.text.slice(0, 120)}…` : u.text)}`).join('; ');
  return `${path}: no log_line_prefix fits its first ${d.lines} lines (${d.prefixed} of them end a prefix with a severity word), `
    + `and it is no csvlog or jsonlog, so it was not read. Lines it could not frame: ${shown}. `
    + 'Give the server\'s prefix with --pg-prefix or the source\'s prefix (psql: SHOW log_line_prefix), or its format with --pg-format';
}
