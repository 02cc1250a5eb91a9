// The TJ quoting rule (tj-format.md §3): a value opened by `'` or `"` runs to the matching quote,
// across line breaks; the quote character inside is doubled. Works on decoded event text.

export interface QuotedValue {
  value: string;
  /** Index just after the closing quote, or -1 when the value is not closed in `text`. */
  next: number;
}

/** Reads the quoted value whose opening quote is at `open`. */
export function readQuotedValue(text: string, open: number): QuotedValue {
  const quote = text[open] as string;
  let from = open + 1;
  let doubled = false;
  for (;;) {
    const close = text.indexOf(quote, from);
    if (close < 0) return { value: text.slice(open + 1), next: -1 };
    if (text.charCodeAt(close + 1) === quote.charCodeAt(0)) {
      doubled = true;
      from = close + 2;
      continue;
    }
    let value = text.slice(open + 1, close);
    if (doubled) value = value.replaceAll(quote + quote, quote);
    return { value, next: close + 1 };
  }
}
