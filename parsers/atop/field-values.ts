// Turns a line's tokens into named values with its field table: picks the layout by token count (hence
// the atop versions), converts numbers, unwraps parenthesised text. Returns a reason instead of throwing.
import type { AtopFieldValue } from '../../schemas/atop-record.js';
import { type FieldTable, knownCounts, type Layout, pickLayout } from './labels/layout.js';
import { PRE_GPU_VALUES, PRE_REAL_STATES } from './labels/process.js';

const NUMBER = /^-?\d+(?:\.\d+)?$/;
/** printf of a NaN or infinite double (atop divides by zero in rare corners): kept as text, not a number. */
const NOT_FINITE = /^-?(?:nan|inf)$/i;

export interface NamedFields {
  layout: Layout;
  fields: Record<string, AtopFieldValue>;
}

/** The named fields of a line, or a sentence saying what did not fit. */
export function nameFields(label: string, table: FieldTable, tokens: string[]): NamedFields | string {
  const joined = joinSurplus(table, tokens);
  const layout = pickLayout(table, joined.length);
  if (layout === null) {
    return `${table.name} line has ${joined.length} fields after the header; atop 2.4–2.13 print ${knownCounts(table)} (a cut line?)`;
  }
  // Before 2.11 PRE printed uninitialised memory for tasks without GPU data (docs/atop-format.md §4): drop it.
  const skip = label === 'PRE' && !PRE_REAL_STATES.has(joined[3] ?? '') ? new Set(PRE_GPU_VALUES) : null;
  const fields: Record<string, AtopFieldValue> = {};
  for (let i = 0; i < layout.fields.length; i += 1) {
    const def = layout.fields[i]!;
    const token = joined[i] ?? '';
    if (skip?.has(def.name)) continue;
    switch (def.kind) {
      case 's':
        fields[def.name] = token;
        break;
      case 'p':
        fields[def.name] = token.length >= 2 && token.startsWith('(') && token.endsWith(')') ? token.slice(1, -1) : token;
        break;
      case 'l': {
        const pids = token === '' ? [] : token.split(' ').map(Number);
        if (pids.some((p) => !Number.isSafeInteger(p))) return `${table.name} field ${def.name} is "${token}", expected PIDs`;
        fields[def.name] = pids;
        break;
      }
      default: {
        const text = def.kind === '%' && token.endsWith('%') ? token.slice(0, -1) : token;
        if (NUMBER.test(text)) {
          // A garbage counter of hundreds of digits would be Infinity: keep such text as it is.
          const n = Number(text);
          fields[def.name] = Number.isFinite(n) ? n : text;
        } else if (NOT_FINITE.test(text)) fields[def.name] = text;
        else return `${table.name} field ${def.name} (position ${i + 7}) is "${token}", expected a number`;
      }
    }
  }
  return { layout, fields };
}

/** Joins surplus tokens into the table's free-text field (a GPU type or NFS mount with spaces). */
function joinSurplus(table: FieldTable, tokens: string[]): string[] {
  const at = table.joinAt;
  const count = table.layouts[table.layouts.length - 1]?.count ?? 0;
  if (at === undefined || tokens.length <= count) return tokens;
  const surplus = tokens.length - count;
  return [...tokens.slice(0, at), tokens.slice(at, at + surplus + 1).join(' '), ...tokens.slice(at + surplus + 1)];
}
