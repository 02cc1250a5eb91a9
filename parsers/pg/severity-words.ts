// Recognises the `SEVERITY:  ` / `LABEL:  ` token that ends a log_line_prefix, in all 11 catalog languages (docs/pg-format.md §6).
import type { PgSeverity } from '../../schemas/pg-event.js';
import { CATALOG } from './message-catalog.js';

export const LABELS = ['DETAIL', 'HINT', 'CONTEXT', 'STATEMENT', 'QUERY', 'LOCATION', 'BACKTRACE'] as const;
export type Label = (typeof LABELS)[number];

export interface HeadToken {
  /** `sev` starts a new entry; `label` continues the previous entry of the same process. */
  type: 'sev' | 'label';
  severity: PgSeverity | null;
  label: Label | null;
  /** Localized word as printed, e.g. `СООБЩЕНИЕ`. */
  word: string;
  /** Index of the first character of the message text. */
  textStart: number;
}

interface Candidate {
  token: string;
  /** The token without its colon: computed once, not per line. */
  word: string;
  type: 'sev' | 'label';
  severity: PgSeverity | null;
  label: Label | null;
}

const SEVERITY_IDS: readonly PgSeverity[] = ['LOG', 'ERROR', 'FATAL', 'PANIC', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'];

// Candidates keyed by first UTF-16 unit so that a line costs one Map lookup and a startsWith or two.
const byFirstChar = new Map<number, Candidate[]>();
const seen = new Set<string>();

function add(token: string, type: 'sev' | 'label', severity: PgSeverity | null, label: Label | null): void {
  if (token.length < 2 || seen.has(token)) return; // ka uses one word for WARNING and NOTICE: first one wins
  seen.add(token);
  const code = token.charCodeAt(0);
  const list = byFirstChar.get(code) ?? [];
  list.push({ token, word: token.slice(0, -1).trimEnd(), type, severity, label });
  list.sort((a, b) => b.token.length - a.token.length);
  byFirstChar.set(code, list);
}

for (const row of CATALOG) {
  const id = row[0] ?? '';
  const sev = SEVERITY_IDS.find((s) => s === id);
  if (sev) {
    for (const w of row) if (w) add(`${w}:`, 'sev', sev, null);
    continue;
  }
  const label = LABELS.find((l) => id.startsWith(`${l}:`));
  if (label) {
    // Keep the text up to its colon: `ASTUCE :`, `ПОЛОЖЕНИЕ:` (one space after it), `쿼리:` (a TAB after it).
    for (const w of row) if (w) add(w.slice(0, w.indexOf(':') + 1), 'label', null, label);
  }
}
// DEBUG1..5 print as DEBUG; PG ≤ 9 `LOG:` variants need nothing more.

/** Every severity/label token with its colon (`LOG:`, `ASTUCE :`), longest first: for the prefix regex's lookahead. */
export const HEAD_TOKENS: readonly string[] = [...seen].sort((a, b) => b.length - a.length);

/** Reads a severity or label token at `pos`; null when none starts there. */
export function readHead(line: string, pos: number): HeadToken | null {
  const list = byFirstChar.get(line.charCodeAt(pos));
  if (list === undefined) return null;
  for (const c of list) {
    if (!line.startsWith(c.token, pos)) continue;
    let end = pos + c.token.length;
    const after = line.charCodeAt(end);
    // The separator is two spaces (`LOG:  `); accept one space, a TAB, or end of line (empty message).
    if (after === 32 || after === 9) {
      end++;
      if (line.charCodeAt(end) === 32) end++;
    } else if (end < line.length) continue;
    return { type: c.type, severity: c.severity, label: c.label, word: c.word, textStart: end };
  }
  return null;
}

/** Maps a severity word in any catalog language (csvlog `error_severity`) to its English form. */
export function canonicalSeverity(word: string): PgSeverity | null {
  const head = readHead(`${word}: `, 0);
  if (head?.type === 'sev') return head.severity;
  return /^DEBUG[1-5]$/.test(word) ? 'DEBUG' : null;
}
