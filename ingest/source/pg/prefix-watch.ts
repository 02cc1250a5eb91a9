// A stderr log written under another log_line_prefix than the configured one parses without an error: every line
// becomes an orphan kept whole, and the store fills with text while pg_lock_waits stays empty. `parse pg` says so
// after a file; a tailed source says so once its first lines held no entry (docs/pg-format.md, "the prefix").
import type { IncrementalParser, ParseOutput } from '../../../parsers/parser.js';

/** Lines without a single entry after which the prefix is called wrong (a few hundred: a log's start-up banner and
 * pg_ctl's own lines are orphans too, but an entry comes within them). */
export const PREFIX_CHECK_LINES = 200;

/**
 * Hands `inner`'s output on unchanged and calls `mismatch` once: when PREFIX_CHECK_LINES lines came out and none
 * began with the prefix (severity null = an orphan line), or when the file ended with lines and no entry.
 */
export function watchPrefix<E extends { severity: unknown }>(inner: IncrementalParser<E>, mismatch: (lines: number) => void): IncrementalParser<E> {
  let lines = 0;
  let decided = false;
  const look = (out: ParseOutput<E>, ended: boolean): ParseOutput<E> => {
    if (decided) return out;
    for (const e of out.events) {
      if (e.severity !== null) { decided = true; return out; }
      lines++;
    }
    if (lines >= PREFIX_CHECK_LINES || (ended && lines > 0)) {
      decided = true;
      mismatch(lines);
    }
    return out;
  };
  return {
    push: (chunk) => look(inner.push(chunk), false),
    finish: () => look(inner.finish(), true),
    get settled() { return inner.settled; },
    ...(inner.copiesInput !== undefined ? { copiesInput: inner.copiesInput } : {}),
  };
}
