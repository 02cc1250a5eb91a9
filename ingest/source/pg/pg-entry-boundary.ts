// Lets a stderr entry that ends exactly where the read stopped be handed out, by peeking at the next line in the file.
//
// Why: a stderr entry is complete only when the next line shows it does not continue (TAB line, DETAIL of the same
// pid), so the framer keeps the last entry and `settled` stops at its first byte. A segment then ends where the next
// entry began, after that entry's first line was read. When a crash leaves that segment unacknowledged, the source
// replays exactly its byte range, and reading stops where the next line begins: without a look at that line, the
// replay would keep the last entry back and hand it to the next segment, which stores it a second time if the first
// attempt was already inserted. So at the end of every push that ends on a line break while an entry is pending, the
// next complete non-blank line is read from the file; if it starts a new entry (a prefixed severity line or a line
// without the prefix), the parser is finished there and a fresh one starts at that offset (the same output as going
// on: `settled` is a safe restart point). The replay peeks at the same bytes and decides the same way.
// Only complete lines are handed to the parser (a read may end mid-line), so every decision is taken at a line start.
// Falls short: a DETAIL-like line of another pid, or a next line over 64 KiB, is taken as a continuation (not peeked),
// and a file truncated and rewritten past the offset is read as the new content; each only delays an entry.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { PgEvent } from '../../../schemas/pg-event.js';
import type { IncrementalParser, ParseOutput } from '../../../parsers/parser.js';
import type { PrefixMatcher } from '../../../parsers/pg/prefix.js';

const PEEK_BYTES = 64 * 1024;

/** Bytes of the file at `offset` (up to PEEK_BYTES) if it is still the file `dev:ino`, else null. */
export function filePeeker(path: string, dev: number, ino: number): (offset: number) => Buffer | null {
  return (offset) => {
    let fd: number | undefined;
    try {
      fd = openSync(path, 'r');
      const st = fstatSync(fd);
      if (st.dev !== dev || st.ino !== ino) return null;
      const buf = Buffer.allocUnsafe(PEEK_BYTES);
      return buf.subarray(0, readSync(fd, buf, 0, PEEK_BYTES, offset));
    } catch {
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
}

/** Whether the first complete non-blank line of `bytes` starts a new entry; null when no complete line is there. */
export function startsNewEntry(bytes: Buffer, matcher: PrefixMatcher): boolean | null {
  let p = 0;
  for (let nl = bytes.indexOf(10, p); nl >= 0; nl = bytes.indexOf(10, p)) {
    const end = nl > p && bytes[nl - 1] === 13 ? nl - 1 : nl;
    if (end > p) {
      const first = bytes[p];
      if (first === 9 || first === 32) return false; // continuation of the open field (stderr-framing.ts `line`)
      const m = matcher.match(bytes.toString('utf8', p, end));
      return m === null || m.head.type !== 'label';
    }
    p = nl + 1; // blank lines are skipped by the framer
  }
  return null;
}

const NO_BYTES = Buffer.alloc(0);
const joined = (a: ParseOutput<PgEvent>, b: ParseOutput<PgEvent>): ParseOutput<PgEvent> =>
  (a.events.length === 0 && a.errors.length === 0 ? b : { events: [...a.events, ...b.events], errors: [...a.errors, ...b.errors] });

/**
 * `matcher` gives the prefix of the parser `make` builds next. A young log's found prefix can change as it grows
 * (pg-file-readings.ts): the new one takes over at the first line, at or after the change, that begins a new entry
 * under it. The parser built by `make` is handed complete lines only: a read ends wherever the writer was, and the
 * rest of a line it cut, taken for a line of its own (no prefix, so "a new entry"), had the parser remade in the
 * middle of that line, which stored the cut entry and its remaining lines as orphans; and a line begun under the
 * old prefix was read whole by the old parser (pg-follow-split.test.ts).
 */
export function createEntryBoundaryParser(
  make: (offset: number) => IncrementalParser<PgEvent>, offset: number, matcher: () => PrefixMatcher, peek: (offset: number) => Buffer | null,
): IncrementalParser<PgEvent> {
  let used = matcher();
  let inner = make(offset);
  /** Offset of the first byte not handed to `inner`: a line start, unless `midLine`. */
  let pos = offset;
  /** The bytes of a line not complete yet (they follow `pos`), kept until its line feed comes. */
  let partial: Buffer = NO_BYTES;
  /** A line longer than PEEK_BYTES is handed on unfinished (memory stays bounded by the parser's own limits): `pos` is
   * inside it until its line feed, and no prefix change or peek is decided there. */
  let midLine = false;
  const remake = (): ParseOutput<PgEvent> => {
    const rest = inner.finish();
    used = matcher();
    inner = make(pos);
    return rest;
  };
  const pushInner = (bytes: Buffer): ParseOutput<PgEvent> => {
    pos += bytes.length;
    return inner.push(bytes);
  };
  /** Hands complete `lines` on; while the prefix changed, line by line up to the first that begins an entry under it. */
  const pushLines = (lines: Buffer, endsFile: boolean): ParseOutput<PgEvent> => {
    let out: ParseOutput<PgEvent> = { events: [], errors: [] };
    let rest = lines;
    while (matcher() !== used && rest.length > 0) {
      // At the end of the file, its last line (without a line feed) is complete too.
      const starts = startsNewEntry(endsFile && rest.indexOf(10) < 0 ? Buffer.concat([rest, Buffer.from('\n')]) : rest, matcher());
      if (inner.settled >= pos || starts === true) {
        out = remake();
        break;
      }
      const nl = rest.indexOf(10);
      if (nl < 0) break;
      out = joined(out, pushInner(rest.subarray(0, nl + 1)));
      rest = rest.subarray(nl + 1);
    }
    return rest.length > 0 ? joined(out, pushInner(rest)) : out;
  };
  return {
    push(chunk) {
      let before: ParseOutput<PgEvent> = { events: [], errors: [] };
      let fresh = chunk;
      if (midLine) {
        const nl = chunk.indexOf(10);
        if (nl < 0) return pushInner(chunk);
        before = pushInner(chunk.subarray(0, nl + 1));
        midLine = false;
        fresh = chunk.subarray(nl + 1);
      }
      const bytes = partial.length === 0 ? fresh : Buffer.concat([partial, fresh]);
      const end = bytes.lastIndexOf(10) + 1;
      // Copied: the caller may reuse its buffer, and a line is short.
      partial = end < bytes.length ? Buffer.from(bytes.subarray(end)) : NO_BYTES;
      let out = joined(before, pushLines(bytes.subarray(0, end), false));
      if (partial.length > PEEK_BYTES) {
        out = joined(out, pushInner(partial));
        partial = NO_BYTES;
        midLine = true;
        return out;
      }
      if (end === 0 || inner.settled >= pos) return out;
      const next = peek(pos);
      if (next === null || startsNewEntry(next, matcher()) !== true) return out;
      return joined(out, remake());
    },
    finish() {
      const out = pushLines(partial, true);
      partial = NO_BYTES;
      return joined(out, inner.finish());
    },
    get settled() {
      return inner.settled;
    },
  };
}
