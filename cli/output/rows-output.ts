// Plain rows for people: an aligned text table or CSV with a header, from report rows (objects, one shape).
import { csvText } from '../../queries/reports/csv.js';

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s+/g, ' ');
}

export function rowsTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)\n';
  const header = Object.keys(rows[0] as object);
  const lines = [header, ...rows.map((r) => header.map((h) => cell(r[h]).slice(0, 80)))];
  const widths = header.map((_, c) => Math.max(...lines.map((l) => (l[c] ?? '').length)));
  return `${lines.map((l) => l.map((x, c) => x.padEnd(widths[c] ?? 0)).join('  ').trimEnd()).join('\n')}\n`;
}

export function rowsCsv(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '';
  const header = Object.keys(rows[0] as object);
  return csvText([header, ...rows.map((r) => header.map((h) => cell(r[h])))]);
}
