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

/**
 * `matcher` gives the prefix of the parser `make` builds next. A young log's found prefix can change as it grows
 * (pg-file-readings.ts): the new one takes over at the next entry boundary, at the latest before bytes that begin
 * a new entry under it are pushed.
 */
export function createEntryBoundaryParser(
  make: (offset: number) => IncrementalParser<PgEvent>, offset: number, matcher: () => PrefixMatcher, peek: (offset: number) => Buffer | null,
): IncrementalParser<PgEvent> {
  let used = matcher();
  let inner = make(offset);
  let pos = offset;
  const remake = (): ParseOutput<PgEvent> => {
    const rest = inner.finish();
    used = matcher();
    inner = make(pos);
    return rest;
  };
  return {
    push(chunk) {
      const before = matcher() !== used && (inner.settled >= pos || startsNewEntry(chunk, matcher()) === true) ? remake() : null;
      const pushed = inner.push(chunk);
      const out: ParseOutput<PgEvent> = before === null ? pushed
        : { events: [...before.events, ...pushed.events], errors: [...before.errors, ...pushed.errors] };
      pos += chunk.length;
      if (chunk.length === 0 || chunk[chunk.length - 1] !== 10 || inner.settled >= pos) return out;
      const next = peek(pos);
      if (next === null || startsNewEntry(next, matcher()) !== true) return out;
      const rest = remake();
      return { events: [...out.events, ...rest.events], errors: [...out.errors, ...rest.errors] };
    },
    finish: () => inner.finish(),
    get settled() {
      return inner.settled;
    },
  };
}
