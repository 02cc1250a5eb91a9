// What the HTTP interface must know about one statement before the engine runs it: its kind (a result to stream,
// an INSERT whose data follows, anything else), its output format, where an INSERT's data starts, whether a second
// statement hides behind a `;`, and the functions it calls (the access guard's input, access-guard.ts).
import { keyword, nameOf, scan, TokenKind, type Token } from './sql-tokens.js';

/** Keywords a `(` may follow that are not function names. */
const NOT_CALLS = new Set(['AS', 'IN', 'FROM', 'JOIN', 'ON', 'USING', 'AND', 'OR', 'NOT', 'WHERE', 'HAVING', 'SELECT', 'VALUES', 'EXISTS', 'ALL', 'ANY', 'UNION', 'INTO', 'TABLE', 'BY', 'WITH', 'THEN', 'ELSE', 'WHEN', 'CASE', 'LIKE', 'ILIKE', 'SETTINGS', 'INTERVAL', 'OVER', 'EXCEPT', 'INTERSECT', 'PREWHERE', 'LIMIT']);

/** Statements whose answer is a result set in a format. */
const RESULT_KINDS = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXISTS', 'EXPLAIN', 'CHECK', 'VALUES', '(']);

export interface InsertData {
  /** The input format the data is in (`Values` for `VALUES`). */
  format: string;
  /** Offset in the statement text where the data begins (after the format name, or the VALUES keyword). */
  dataStart: number;
  /** Offset where the statement's head ends: before its SETTINGS clause, or before FORMAT/VALUES. */
  headEnd: number;
  /** The statement's own SETTINGS clause (`SETTINGS a = 1`), to be kept after FROM INFILE. */
  settingsClause: string;
}

export interface Statement {
  /** The first keyword, upper case (`SELECT`, `INSERT`, `CREATE`…); `(` for a parenthesised SELECT; '' when empty. */
  kind: string;
  /** Whether the answer is a result set. */
  returnsRows: boolean;
  /** A `FORMAT name` at the top level of a result statement. */
  format: string | null;
  /** Where that FORMAT keyword starts, or where the statement ends (before a final `;`) when it has none. */
  formatStart: number;
  /** For `INSERT … FORMAT x` / `INSERT … VALUES`: where the data is. Null for `INSERT … SELECT` and all else. */
  insert: InsertData | null;
  /** An `INSERT … SELECT … FORMAT x`: data read by input(), which this interface does not take. */
  insertSelectWithData: boolean;
  /** A second statement after a `;`. */
  multiple: boolean;
  /** Names called as functions or engines (`name(`), lower case. */
  calls: string[];
  /** `INTO OUTFILE` or `FROM INFILE`: the engine would touch the daemon's file system. */
  touchesFiles: boolean;
}

export function analyzeStatement(text: string): Statement {
  const tokens: Token[] = [];
  const calls = new Set<string>();
  let depth = 0;
  let kind = '';
  let format: string | null = null;
  let formatStart = -1;
  let end = 0;
  let insert: InsertData | null = null;
  let insertSelect = false;
  let insertSelectWithData = false;
  let settingsAt = -1;
  let multiple = false;
  let touchesFiles = false;
  for (const t of scan(text)) {
    const prev = tokens[tokens.length - 1];
    tokens.push(t);
    if (kind === '') kind = t.kind === TokenKind.OpenParen ? '(' : keyword(t);
    if (prev?.kind === TokenKind.Semicolon && depth === 0 && t.kind !== TokenKind.Semicolon) {
      multiple = true;
      break;
    }
    if (t.kind === TokenKind.Semicolon) continue;
    end = t.end;
    if (t.kind === TokenKind.OpenParen) {
      if (prev && (prev.kind === TokenKind.QuotedName || (prev.kind === TokenKind.Word && !NOT_CALLS.has(keyword(prev))))) calls.add(nameOf(prev).toLowerCase());
      depth++;
      continue;
    }
    if (t.kind === TokenKind.CloseParen) { depth = Math.max(0, depth - 1); continue; }
    const word = keyword(t);
    if ((word === 'OUTFILE' && keyword(prev) === 'INTO') || (word === 'INFILE' && keyword(prev) === 'FROM')) touchesFiles = true;
    if (depth !== 0 || word === '') continue;
    if (kind === 'INSERT') {
      if (word === 'SELECT' || word === 'WITH') insertSelect = true;
      if (word === 'SETTINGS' && !insertSelect && settingsAt < 0) settingsAt = t.start;
      if (word === 'VALUES' && !insertSelect) {
        insert = insertAt(text, 'Values', t.end, settingsAt >= 0 ? settingsAt : t.start, t.start, settingsAt);
        break;
      }
      if (keyword(prev) === 'FORMAT' && tokens.length >= 2) {
        if (insertSelect) { insertSelectWithData = true; break; }
        const head = tokens[tokens.length - 2] as Token;
        insert = insertAt(text, nameOf(t), dataStartAfter(text, t.end), settingsAt >= 0 ? settingsAt : head.start, head.start, settingsAt);
        break;
      }
    } else if (keyword(prev) === 'FORMAT' && t.kind !== TokenKind.Punct) {
      format = nameOf(t);
      formatStart = (prev as Token).start;
    }
  }
  return {
    kind, returnsRows: RESULT_KINDS.has(kind), format, formatStart: formatStart >= 0 ? formatStart : end, insert, insertSelectWithData, multiple, calls: [...calls], touchesFiles,
  };
}

function insertAt(text: string, format: string, dataStart: number, headEnd: number, formatStart: number, settingsAt: number): InsertData {
  return { format, dataStart, headEnd, settingsClause: settingsAt >= 0 ? text.slice(settingsAt, formatStart).trim() : '' };
}

/**
 * Data after `FORMAT name` starts past the blanks that end the line, and past that one line break: a client that
 * puts the statement in the URL and the data in the body gets exactly its body (the query text and the body are
 * joined by a line break, as ClickHouse does).
 */
function dataStartAfter(text: string, at: number): number {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] === '\r' && text[i + 1] === '\n') return i + 2;
  if (text[i] === '\n') return i + 1;
  return i;
}
