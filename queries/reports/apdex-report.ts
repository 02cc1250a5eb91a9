// `perfpipe report apdex` output: queries/reports/apdex.sql rows → the JSON document scripts read, or a table
// and CSV for people. The SQL computes every value (formula, rounding, bands); this only shapes them.
import { csvText } from './csv.js';

export interface ApdexOperation {
  operation: string;
  /** `export`: measured by the performance-evaluation subsystem; `tj`: TJ CALLs matched by a config rule. */
  source: string;
  /** T in seconds; null when neither the config, key_operations nor the export gives one (then no APDEX). */
  target_s: number | null;
  /** Where T comes from: `config`, `key_operations`, `export`, or '' (none). */
  target_from: string;
  /** 1 = most important; weights the priority-weighted overall. */
  priority: number | null;
  /** Minimum acceptable APDEX of the operation (docs/apdex.md §1). */
  min_level: number | null;
  n: number;
  satisfied: number | null;
  tolerating: number | null;
  frustrated: number | null;
  /** (S + T/2) / N rounded half-up to 3 decimals. */
  apdex: number | null;
}

export interface ApdexOverall {
  label: string;
  n: number;
  satisfied: number;
  tolerating: number;
  frustrated: number;
  apdex: number;
  /** Band of docs/apdex.md §1: Excellent, Good, Fair, Poor, Unacceptable. */
  rating: string;
}

export interface ApdexReport {
  operations: ApdexOperation[];
  /** Null when no operation with a T has measurements in the window. */
  overall: { count_weighted: ApdexOverall | null; priority_weighted: ApdexOverall | null };
}

// ClickHouse writes UInt64 as JSON strings (output_format_json_quote_64bit_integers): numbers again here.
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function apdexReport(rows: Record<string, unknown>[]): ApdexReport {
  const overall = (scope: string): ApdexOverall | null => {
    const r = rows.find((x) => x.scope === scope);
    return r === undefined ? null : {
      label: String(r.operation), n: Number(r.n), satisfied: Number(r.satisfied), tolerating: Number(r.tolerating),
      frustrated: Number(r.frustrated), apdex: Number(r.apdex), rating: String(r.rating),
    };
  };
  return {
    operations: rows.filter((r) => r.scope === 'operation').map((r) => ({
      operation: String(r.operation), source: String(r.source), target_s: num(r.target_s), target_from: String(r.target_from),
      priority: num(r.priority), min_level: num(r.min_level), n: Number(r.n), satisfied: num(r.satisfied),
      tolerating: num(r.tolerating), frustrated: num(r.frustrated), apdex: num(r.apdex),
    })),
    overall: { count_weighted: overall('overall_count_weighted'), priority_weighted: overall('overall_priority_weighted') },
  };
}

const HEAD = ['scope', 'operation', 'target_s', 'n', 'satisfied', 'tolerating', 'frustrated', 'apdex', 'rating', 'source'] as const;

function lines(rows: Record<string, unknown>[]): string[][] {
  const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
  return rows.map((r) => HEAD.map((h) => text(r[h])));
}

export function apdexCsv(rows: Record<string, unknown>[]): string {
  return csvText([[...HEAD], ...lines(rows)]);
}

/** Aligned columns; numbers right-aligned. Widths count code points, so Cyrillic names line up too. */
export function apdexTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(no APDEX measurements in this window)\n';
  const all = [['scope', 'operation', 'T, s', 'N', 'S', 'A', 'F', 'APDEX', 'rating', 'source'], ...lines(rows)];
  const len = (s: string): number => [...s].length;
  const widths = all[0]!.map((_, i) => Math.max(...all.map((l) => len(l[i] ?? ''))));
  const right = new Set([2, 3, 4, 5, 6, 7]);
  return all.map((l) => l.map((c, i) => {
    const pad = ' '.repeat((widths[i] ?? 0) - len(c));
    return right.has(i) ? pad + c : c + pad;
  }).join('  ').trimEnd()).join('\n') + '\n';
}
