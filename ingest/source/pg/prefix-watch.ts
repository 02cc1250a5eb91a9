// A stderr log written under another log_line_prefix than the configured one parses without an error: every line
// becomes an orphan kept whole, and the store fills with text while pg_lock_waits stays empty. `parse pg` says so
// after a file; a tailed source says so once its first lines held no entry (docs/pg-format.md, "the prefix").
import type { IncrementalParser, ParseOutput } from '../../../parsers/parser.js';

/** Lines without a single entry after which the prefix is called wrong (a few hundred: a log's start-up banner and
 * pg_ctl's own lines are orphans too, but an entry comes within them). */
export const PREFIX_CHECK_LINES = 200;

export type CountingParser<E> = IncrementalParser<E> & { lines: number; entries: number };

/**
 * `inner`, counting what it hands out: `lines` events in all, `entries` of them begun with the prefix (an orphan
 * line has severity null). `whenCounted` runs after each push and the finish, with `ended` true for the finish.
 */
export function countingEntries<E extends { severity: unknown }>(
  inner: IncrementalParser<E>, whenCounted: (counted: CountingParser<E>, ended: boolean) => void = () => {},
): CountingParser<E> {
  const count = (out: ParseOutput<E>, ended: boolean): ParseOutput<E> => {
    for (const e of out.events) {
      counted.lines++;
      if (e.severity !== null) counted.entries++;
    }
    whenCounted(counted, ended);
    return out;
  };
  const counted: CountingParser<E> = {
    lines: 0,
    entries: 0,
    push: (chunk) => count(inner.push(chunk), false),
    finish: () => count(inner.finish(), true),
    get settled() { return inner.settled; },
    ...(inner.copiesInput !== undefined ? { copiesInput: inner.copiesInput } : {}),
    ...(inner.idle ? { idle: () => inner.idle?.() } : {}),
  };
  return counted;
}

/**
 * Hands `inner`'s output on unchanged and calls `mismatch` once: when PREFIX_CHECK_LINES lines came out and none
 * began with the prefix, or when the file ended with lines and no entry.
 */
export function watchPrefix<E extends { severity: unknown }>(inner: IncrementalParser<E>, mismatch: (lines: number) => void): IncrementalParser<E> {
  let said = false;
  return countingEntries(inner, ({ lines, entries }, ended) => {
    if (said || entries > 0 || lines === 0 || (lines < PREFIX_CHECK_LINES && !ended)) return;
    said = true;
    mismatch(lines);
  });
}
