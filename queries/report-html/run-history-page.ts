// The run-history page (`report runs --html FILE`) from the history `report runs --format json` writes, so the page
// and the JSON agree by construction. Pure: the history is fetched by the caller (queries/reports/run-history.ts).
import { PASS_MARK, type RunHistoryRow } from '../reports/run-history.js';
import { frame } from './collect-page.js';
import type { ReportPage } from './report-page.js';

export function runHistoryPage(runs: RunHistoryRow[], req: { title: string; timeZone: string; generatedAt: number }): ReportPage {
  // The header's window spans the runs, from the first start to the last end (an open run's end is the report's time).
  const from = runs.length === 0 ? null : Math.min(...runs.map((r) => Date.parse(r.started_at) / 1000));
  const to = runs.length === 0 ? null : Math.max(...runs.map((r) => Date.parse(r.started_at) / 1000 + r.duration_s));
  return { ...req, run: null, ...frame({ from, to }, [], req.generatedAt / 1000), runs: { runs, passMark: PASS_MARK } };
}
