// The shape every bench returns and the text table it prints: one place, so `bench/run.ts` can merge any bench.

export interface Figure {
  name: string;
  value: number;
  /** Unit as printed, e.g. `MB/s` (10^6 bytes per second), `events/s`, `MiB`. */
  unit: string;
}

export interface BenchResult {
  bench: string;
  /** What was measured: sizes in bytes and counts, so figures from different inputs are never compared blindly. */
  input: Record<string, string | number>;
  figures: Figure[];
  /** Whether the bench's own check of its output passed (e.g. parsed counts = generated counts). */
  ok: boolean;
  notes?: string[];
  /** ISO time the bench finished; set by bench/run.ts, so a partial run's file tells old figures from new. */
  measured_at?: string;
}

/** Right-aligns numbers, left-aligns text: a plain table for a terminal or a CI log. */
export function formatTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const numeric = (s: string): boolean => /^-?[\d.,]+$/.test(s);
  const line = (r: string[]): string =>
    r.map((cell, c) => (numeric(cell) ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function figureRows(result: BenchResult): string[][] {
  return result.figures.map((f) => [result.bench, f.name, f.value >= 100 ? f.value.toFixed(0) : f.value.toFixed(2), f.unit]);
}

/** The q-quantile of ascending `sorted` (nearest rank); NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
