// The TJ quoting rule (docs/tj-format.md §3): a value opened by `'` or `"` runs to the matching quote,
// across line breaks; the quote character inside is doubled. Works on decoded event text.
//
// A quote closes the value only when a comma, a line end or the end of the event follows it (§3.2). A lone quote
// followed by other text is not one the 1C server writes (it doubles them): it is kept as a character of the
// value. When no quote closes the value, the first such quote is taken as the closing one after all, and the
// text after it, up to the next comma, stays in the value as it is (a spliced line).

export interface QuotedValue {
  value: string;
  /** Index just after the value (its closing quote, or the text kept after a stray quote), or -1 when not closed. */
  next: number;
  /** Index of the first quote followed by text that closed nothing, or -1 when the value is well-formed. */
  strayQuote: number;
  /** Index of the quote that closed the value, or -1 (not closed, or read to a comma after a stray quote). */
  close: number;
}

const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** Reads the quoted value whose opening quote is at `open`. */
export function readQuotedValue(text: string, open: number): QuotedValue {
  const quote = text[open] as string;
  const q = quote.charCodeAt(0);
  let from = open + 1;
  let doubled = false;
  let stray = -1;
  for (;;) {
    const close = text.indexOf(quote, from);
    if (close < 0) break;
    const after = text.charCodeAt(close + 1);
    if (after === q) {
      doubled = true;
      from = close + 2;
      continue;
    }
    if (close + 1 >= text.length || after === COMMA || after === LF || (after === CR && text.charCodeAt(close + 2) === LF)) {
      let value = text.slice(open + 1, close);
      if (doubled) value = value.replaceAll(quote + quote, quote);
      return { value, next: close + 1, strayQuote: stray, close };
    }
    if (stray < 0) stray = close;
    from = close + 1;
  }
  if (stray < 0) return { value: text.slice(open + 1), next: -1, strayQuote: -1, close: -1 };
  const comma = text.indexOf(',', stray + 1);
  const stop = comma < 0 ? text.length : comma;
  let value = text.slice(open + 1, stray);
  if (value.includes(quote + quote)) value = value.replaceAll(quote + quote, quote);
  return { value: value + text.slice(stray, stop), next: stop, strayQuote: stray, close: -1 };
}
