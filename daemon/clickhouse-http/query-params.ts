// `param_<name>` values as the engine binds them. Over HTTP a value is text in ClickHouse's escaped form (`\t`,
// `\n`, `\\`, `\N` for NULL), which is what the engine parses for `{name:Type}`; chdb escapes the strings it is given
// once more, so the value is unescaped here first and reaches the engine exactly as sent.

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', r: '\r', n: '\n', t: '\t', '0': '\0', a: '\x07', v: '\v', e: '\x1b', '\\': '\\', "'": "'", '"': '"' };

export function unescapeParam(value: string): string | null {
  if (value === '\\N') return null;
  return value.replace(/\\(x[0-9A-Fa-f]{2}|.)/gs, (whole, c: string) => {
    if (c.length === 3) return String.fromCharCode(parseInt(c.slice(1), 16));
    return ESCAPES[c] ?? c;
  });
}

export function bindableParams(params: Record<string, string>): Record<string, string | null> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, unescapeParam(v)]));
}
