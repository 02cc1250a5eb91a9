// `perfpipe report run-compare A B` as JSON (queries/reports/run-compare.ts's document as it is), a table or CSV:
// one line per key operation, then one per lock count, each with A, B and the change; then what changed in the
// runs' context (settings, host, 1C) between them and inside each.
import type { ReportRows } from '../../queries/reports/report-rows.js';
import { compareRuns, type RunSide } from '../../queries/reports/run-compare.js';
import { rowsCsv, rowsTable } from './rows-output.js';

export async function runCompare(source: ReportRows, runs: Array<{ name: string; window: { from: number; to: number } }>, format: 'table' | 'json' | 'csv'): Promise<string> {
  const doc = await compareRuns(source, runs);
  if (format === 'json') return `${JSON.stringify(doc)}\n`;
  const [a, b] = doc.runs;
  const flat = [
    ...doc.operations.map((o) => {
      const x = o[a] as RunSide;
      const y = o[b] as RunSide;
      return { what: o.operation, [`${a} apdex`]: x.apdex, [`${b} apdex`]: y.apdex, 'Δ apdex': o.delta.apdex, [`${a} avg_s`]: x.avg_s, [`${b} avg_s`]: y.avg_s, 'Δ avg_s': o.delta.avg_s, [`${a} n`]: x.n, [`${b} n`]: y.n, 'Δ n': o.delta.n };
    }),
    ...Object.entries(doc.locks).map(([k, l]) => ({ what: k, [`${a} apdex`]: null, [`${b} apdex`]: null, 'Δ apdex': null, [`${a} avg_s`]: null, [`${b} avg_s`]: null, 'Δ avg_s': null, [`${a} n`]: l[a] ?? 0, [`${b} n`]: l[b] ?? 0, 'Δ n': l.delta })),
  ];
  const table = format === 'csv' ? rowsCsv(flat) : rowsTable(flat);
  // What changed: between the runs' starts, then inside each run with its time (run-context.ts).
  const changes = [
    ...doc.changes.map((c) => ({ when: `before ${b}`, scope: c.scope, name: c.name, [a]: c.a ?? '(not recorded)', [b]: c.b ?? '(not recorded)', at: c.at ?? '', from: c.from })),
    ...doc.changes_during.map((c) => ({ when: `during ${c.run}`, scope: c.scope, name: c.name, [a]: c.a ?? '(not recorded)', [b]: c.b, at: c.at, from: c.from })),
  ];
  const notes = doc.notes.map((n) => `note: ${n}\n`).join('');
  if (format === 'csv') return `${table}\n# what changed\n${rowsCsv(changes)}`;
  return `${table}\nwhat changed\n${changes.length === 0 ? '(nothing recorded changed)\n' : rowsTable(changes)}${notes}`;
}
