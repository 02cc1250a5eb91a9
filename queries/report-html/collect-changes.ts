// "What changed" for a report page (run-context.ts): a run's page compares it with the run that started before it
// and lists the reloads inside it; a page of a window that is no run lists the reloads inside the window.
import { compareContexts, type RunWindow } from '../reports/run-context.js';
import type { ChangesSection } from './report-page.js';
import type { ReportParams } from '../reports/report-rows.js';

type Row = Record<string, unknown>;
type WindowRows = (name: string, extra?: ReportParams) => Promise<Row[]>;

const num = (v: unknown): number => Number(v ?? 0);

export async function collectChanges(rows: WindowRows, run: string | null, window: { from: number | null; to: number | null }): Promise<ChangesSection | null> {
  const runs = (await rows('runs')).map((r): RunWindow => ({ name: String(r.name), window: { from: num(r.from_ms) / 1000, to: num(r.to_ms) / 1000 } }));
  const at = (name: string, params: Record<string, string>) => rows(name, params);
  const i = run === null ? -1 : runs.findIndex((r) => r.name === run);
  if (i >= 0) {
    const self = runs[i] as RunWindow;
    const before = i > 0 ? runs[i - 1] as RunWindow : null;
    const comparison = await compareContexts(at, before ?? self, self);
    const during = comparison.changes_during.filter((c) => c.run === self.name);
    return { run: self.name, against: before?.name ?? null, comparison: { changes: before === null ? [] : comparison.changes, changes_during: during, notes: before === null ? [] : comparison.notes } };
  }
  if (window.from === null || window.to === null) return null;
  const self = { name: '(window)', window: { from: window.from, to: window.to } };
  const comparison = await compareContexts(at, self, self);
  return { run: self.name, against: null, comparison: { changes: [], changes_during: comparison.changes_during, notes: [] } };
}
