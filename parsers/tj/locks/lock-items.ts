// The items of a TLOCK `Locks` value or of a TDEADLOCK edge (docs/tj-format.md §5.1): `<space> <Shared|Exclusive>
// <Field=value>*`, comma-separated, with values that may hold spaces and commas inside `"…"` or `[…]`.

/** One field value: a single value, or a range `[lo:hi]` whose open ends (`+`, `-`) are null. */
export type LockValue = { kind: 'value'; value: string } | { kind: 'range'; lo: string | null; hi: string | null };

export interface LockItem {
  space: string;
  mode: string;
  /** Field name → value; empty = the whole space is locked (§5.1 "An item with no fields"). */
  fields: Map<string, LockValue>;
  /** The fields as written (`ID=10:95aa Fld5=0`), for the report. */
  text: string;
}

/** Splits `text` at `sep` where it is outside `"…"` (a doubled `""` toggles twice) and outside `[…]`. */
function splitOutside(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quote = false;
  let bracket = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quote = !quote;
    else if (!quote && c === '[') bracket++;
    else if (!quote && c === ']') bracket = Math.max(0, bracket - 1);
    else if (!quote && bracket === 0 && c === sep) { parts.push(text.slice(from, i)); from = i + 1; }
  }
  parts.push(text.slice(from));
  return parts;
}

const openEnd = (s: string): string | null => (s === '+' || s === '-' || s === '' ? null : s);

/**
 * A range's two ends. The separator is the `:` after a closing quote (`[T"2023…":T"2024…"]`) or next to an open
 * end (`[5:+]`); reference values hold a `:` of their own (`10:9d31…`), so `[a:b:c:d]` splits in the middle.
 */
function parseRange(inner: string): LockValue {
  const quoted = /^("(?:[^"]|"")*"|T"[^"]*"):(.*)$/.exec(inner);
  if (quoted) return { kind: 'range', lo: openEnd(quoted[1]!), hi: openEnd(quoted[2]!) };
  if (inner.endsWith(':+') || inner.endsWith(':-')) return { kind: 'range', lo: openEnd(inner.slice(0, -2)), hi: null };
  if (/^[+-]:/.test(inner)) return { kind: 'range', lo: null, hi: openEnd(inner.slice(2)) };
  const colons = [...inner.matchAll(/:/g)].map((m) => m.index);
  const at = colons[Math.floor(colons.length / 2)] ?? -1;
  return at < 0 ? { kind: 'value', value: inner } : { kind: 'range', lo: openEnd(inner.slice(0, at)), hi: openEnd(inner.slice(at + 1)) };
}

function parseValue(raw: string): LockValue {
  return raw.startsWith('[') && raw.endsWith(']') ? parseRange(raw.slice(1, -1)) : { kind: 'value', value: raw };
}

/** One item `<space> <mode> <fields…>`; null when it has not even a space and a mode. */
export function parseLockItem(item: string): LockItem | null {
  const words = splitOutside(item.trim(), ' ').filter((w) => w !== '');
  const [space, mode, ...rest] = words;
  if (space === undefined || mode === undefined) return null;
  const fields = new Map<string, LockValue>();
  for (const word of rest) {
    const eq = word.indexOf('=');
    if (eq > 0) fields.set(word.slice(0, eq), parseValue(word.slice(eq + 1)));
  }
  return { space, mode, fields, text: rest.join(' ') };
}

/** Every item of a `Locks` value, in order. */
export function parseLockItems(locks: string): LockItem[] {
  return splitOutside(locks, ',').flatMap((piece) => {
    const item = parseLockItem(piece);
    return item === null ? [] : [item];
  });
}
