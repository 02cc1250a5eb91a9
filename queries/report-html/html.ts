// Text into HTML: every value that comes from the store (operation names, 1C contexts, SQL statements) passes
// through `esc` before it reaches the page, since contexts hold `<`, `&` and both kinds of quote.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and for attribute values in double or single quotes. */
export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A number as the page shows it: at most `digits` decimals, no trailing zeros, a thin space between thousands. */
export function fmt(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  // Half away from zero on both sides (Math.round alone rounds -0.5 up, to 0).
  const rounded = (Math.sign(v) * Math.round(Math.abs(v) * 10 ** digits)) / 10 ** digits;
  const [int = '', frac = ''] = rounded.toFixed(digits).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  const f = frac.replace(/0+$/, '');
  return f === '' ? grouped : `${grouped}.${f}`;
}

/** Cuts a long text to `max` code points with an ellipsis; the full text belongs in a title attribute. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export interface Column<R> {
  head: string;
  /** Cell HTML (already escaped). */
  cell: (row: R) => string;
  numeric?: boolean;
}

/** An HTML table; `data-table` names it for tests and for readers of the page source. */
export function table<R>(name: string, columns: Column<R>[], rows: readonly R[]): string {
  const head = columns.map((c) => `<th${c.numeric ? ' class="num"' : ''}>${esc(c.head)}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td${c.numeric ? ' class="num"' : ''}>${c.cell(r)}</td>`).join('')}</tr>`).join('\n');
  return `<table data-table="${esc(name)}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
