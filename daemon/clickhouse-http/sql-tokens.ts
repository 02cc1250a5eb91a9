// ClickHouse SQL cut into tokens, only as far as the HTTP interface needs it: which statement this is, where an
// INSERT's data begins, whether a second statement follows, and which functions it calls. Strings, quoted names and
// comments are whole tokens, so nothing inside them is ever taken for a keyword (docs/clickhouse-http.md §4).
// The engine parses the statement itself; this never decides what a query means, only where its parts are.

export const TokenKind = {
  Word: 'word',
  QuotedName: 'quoted-name',
  String: 'string',
  Number: 'number',
  Punct: 'punct',
  Semicolon: 'semicolon',
  OpenParen: 'open',
  CloseParen: 'close',
} as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

export interface Token {
  kind: TokenKind;
  /** The token's text as written (a string keeps its quotes). */
  text: string;
  start: number;
  end: number;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
const isWordStart = (c: string): boolean => /[A-Za-z_\u0080-\uffff]/.test(c);
const isWordPart = (c: string): boolean => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** The end of a quoted run opened at `start` by `quote`: backslash escapes and a doubled quote stay inside. */
function quotedEnd(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') { i += 2; continue; }
    if (c === quote) {
      if (text[i + 1] === quote) { i += 2; continue; }
      return i + 1;
    }
    i++;
  }
  return text.length; // unterminated: the engine reports it
}

/**
 * The tokens of `text`, one at a time: a caller stops where an INSERT's data begins, which is not SQL. Whitespace
 * and comments (`--`, `# `, `#!`, `/* … *\/` nested) are skipped.
 */
export function* scan(text: string): Generator<Token> {
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (isSpace(c)) { i++; continue; }
    if ((c === '-' && text[i + 1] === '-') || (c === '#' && (text[i + 1] === ' ' || text[i + 1] === '!'))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') { depth++; i += 2; } else if (text[i] === '*' && text[i + 1] === '/') { depth--; i += 2; } else i++;
      }
      continue;
    }
    const start = i;
    let kind: TokenKind;
    if (c === "'") { i = quotedEnd(text, i, "'"); kind = TokenKind.String; } else if (c === '"' || c === '`') { i = quotedEnd(text, i, c); kind = TokenKind.QuotedName; } else if (c === '$' && /^\$\w*\$/.test(text.slice(i, i + 64))) {
      // A heredoc string: $tag$ … $tag$.
      const tag = /^\$\w*\$/.exec(text.slice(i, i + 64))?.[0] ?? '$$';
      const close = text.indexOf(tag, i + tag.length);
      i = close < 0 ? text.length : close + tag.length;
      kind = TokenKind.String;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      while (i < text.length && /[0-9A-Za-z_.]/.test(text[i] as string)) {
        // An exponent's sign belongs to the number: 1e-5.
        if (/[eEpP]/.test(text[i] as string) && /[+-]/.test(text[i + 1] ?? '')) i++;
        i++;
      }
      kind = TokenKind.Number;
    } else if (isWordStart(c)) {
      while (i < text.length && isWordPart(text[i] as string)) i++;
      kind = TokenKind.Word;
    } else {
      i++;
      kind = c === ';' ? TokenKind.Semicolon : c === '(' ? TokenKind.OpenParen : c === ')' ? TokenKind.CloseParen : TokenKind.Punct;
    }
    yield { kind, text: text.slice(start, i), start, end: i };
  }
}

export const tokenize = (text: string): Token[] => [...scan(text)];

/** A word token's text in upper case, or '' for any other token. */
export const keyword = (t: Token | undefined): string => (t?.kind === TokenKind.Word ? t.text.toUpperCase() : '');

/** A name as the engine reads it: a word as is, a quoted name without its quotes. */
export function nameOf(t: Token): string {
  if (t.kind !== TokenKind.QuotedName) return t.text;
  return t.text.slice(1, -1).replace(/\\(.)/g, '$1');
}
