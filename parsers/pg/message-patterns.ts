// Turns catalog message formats (printf style, every language) into matchers, so one rule per English msgid
// recognises that message in all 11 translations (docs/pg-format.md §6). Compiled once at module load.
//
// A format becomes an anchored regex: literals escaped, whitespace runs loosened to \s+ (catalogs wrap lines),
// numbers to digit groups, %s to lazy text (the last one greedy). Adjacent placeholders with nothing between them
// (`bind %s%s%s`) become one group. `%N$` reorders are mapped back so that `args[i]` is always the i-th argument of
// the English format. Candidates are found by the message's first word; formats that begin with a placeholder are
// tried on every message, behind a cheap `includes` check on their longest literal.
import { CATALOG, CATALOG_LANGS } from './message-catalog.js';

export interface CatalogMatch {
  /** English msgid of the rule. */
  id: string;
  lang: string;
  /** Arguments in English-format order; a merged run of placeholders fills its first slot, '' the others. */
  args: string[];
}

interface Compiled {
  id: string;
  lang: string;
  re: RegExp;
  /** For each capture group, the argument slot it fills. */
  slots: number[];
  nargs: number;
  mustContain: string;
}

const PLACEHOLDER = /%(?:(\d+)\$)?[-+ 0#]*\d*(?:\.\d+)?(?:ll|l|h|z)?([dusfxc%])/g;
const KEY_STOP = new Set([' ', '\t', '\n', '"', '(', ':', ',', '.', '%', '«', '“', '，', '：']);
const KEY_MAX = 16;

function escapeLiteral(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
}

function compileFormat(id: string, lang: string, format: string): Compiled {
  let src = '^';
  const slots: number[] = [];
  let lastEnd = 0;
  let nextArg = 0;
  let longest = '';
  let pendingText: string | null = null; // a run of placeholders waiting to become one group
  let runSlot = -1;
  let runIsNumber = false;
  const flush = (final: boolean): void => {
    if (pendingText === null) return;
    src += runIsNumber ? '(-?[\\d.,]+)' : final ? '([\\s\\S]*)' : '(.*?)'; // values inside a line hold no newline
    slots.push(runSlot);
    pendingText = null;
  };
  PLACEHOLDER.lastIndex = 0;
  for (let m = PLACEHOLDER.exec(format); m !== null; m = PLACEHOLDER.exec(format)) {
    const lit = format.slice(lastEnd, m.index);
    lastEnd = m.index + m[0].length;
    if (m[2] === '%') {
      flush(false);
      src += escapeLiteral(`${lit}%`);
      continue;
    }
    const slot = m[1] !== undefined ? Number(m[1]) - 1 : nextArg;
    nextArg = Math.max(nextArg, slot + 1);
    if (lit !== '') {
      flush(false);
      src += escapeLiteral(lit);
      if (lit.trim().length > longest.length) longest = lit.trim();
    }
    const isNumber = m[2] !== 's' && m[2] !== 'c';
    if (pendingText !== null && lit === '') {
      runIsNumber = false; // merged run: text
      continue;
    }
    pendingText = m[0];
    runSlot = slot;
    runIsNumber = isNumber;
  }
  const tail = format.slice(lastEnd).replace(/\n$/, '');
  flush(tail === '');
  if (tail !== '') {
    src += escapeLiteral(tail);
    if (tail.trim().length > longest.length) longest = tail.trim();
  }
  const pieces = longest.split(/\s+/).sort((a, b) => b.length - a.length);
  return { id, lang, re: new RegExp(src), slots, nargs: nextArg, mustContain: pieces[0] ?? '' };
}

/** First-word key of a message or of a format's literal start; '' when a format starts with text of unknown shape. */
function keyOf(text: string, isFormat: boolean): string {
  let i = 0;
  const max = Math.min(text.length, KEY_MAX);
  for (; i < max; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) break;
    // Fast path for lowercase ASCII letters; the stop set is consulted for everything else.
    if (c >= 97 && c <= 122) continue;
    if (KEY_STOP.has(text[i] ?? '')) break;
  }
  if (isFormat && text[i] === '%') {
    // The message holds the argument here: digits stop its key the same way, text does not.
    const conv = /^%(?:\d+\$)?[-+ 0#]*\d*(?:\.\d+)?(?:ll|l|h|z)?([a-z])/.exec(text.slice(i));
    if (conv === null || conv[1] === 's') return '';
  }
  return text.slice(0, i);
}

export interface CatalogMatcher {
  /** First catalog format that matches `text` and that `accept` agrees with (it may veto a loose match). */
  match(text: string, accept?: (m: CatalogMatch) => boolean): CatalogMatch | null;
}

/** Builds a matcher over the catalog rows whose English msgid is in `ids` (order = priority). */
export function createCatalogMatcher(ids: readonly string[]): CatalogMatcher {
  const byKey = new Map<string, Compiled[]>();
  const anywhere: Compiled[] = [];
  for (const id of ids) {
    const row = CATALOG.find((r) => r[0] === id);
    const variants = row ?? [id];
    const done = new Set<string>();
    variants.forEach((format, i) => {
      if (format === '' || done.has(format)) return; // untranslated: English is printed
      done.add(format);
      const c = compileFormat(id, CATALOG_LANGS[i] ?? 'en', format);
      const key = keyOf(format, true);
      if (key === '') anywhere.push(c);
      else byKey.set(key, [...(byKey.get(key) ?? []), c]);
    });
  }
  const tryList = (list: Compiled[] | undefined, text: string, filter: boolean, accept?: (m: CatalogMatch) => boolean): CatalogMatch | null => {
    if (list === undefined) return null;
    for (const c of list) {
      // Keyed formats are anchored and fail at their first differing literal; only the formats that start with a
      // placeholder (tried on every message) are worth a substring check first.
      if (filter && c.mustContain !== '' && !text.includes(c.mustContain)) continue;
      const m = c.re.exec(text);
      if (m === null) continue;
      const args = new Array<string>(c.nargs).fill('');
      for (let g = 0; g < c.slots.length; g++) args[c.slots[g] ?? 0] = m[g + 1] ?? '';
      const found = { id: c.id, lang: c.lang, args };
      if (accept === undefined || accept(found)) return found;
    }
    return null;
  };
  return {
    match(text, accept) {
      return tryList(byKey.get(keyOf(text, false)), text, false, accept) ?? tryList(anywhere, text, true, accept);
    },
  };
}

/** `123.456` / `123,456` (de) → 123.456. */
export function localNumber(s: string): number {
  return Number(s.includes(',') ? s.replace(',', '.') : s);
}
