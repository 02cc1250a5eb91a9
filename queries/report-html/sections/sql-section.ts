// The "Top statements" section (`report sql`): DB time per statement shape as bars, most first, and the table of
// pg_profile's columns with the 1C side: who ran each statement (contexts, key operations).
import type { ReportPage } from '../report-page.js';
import type { SqlReport, SqlStatement } from '../../reports/sql-report.js';
import { barChart } from '../bar-chart.js';
import { clip, esc, fmt, table } from '../html.js';
import { seriesColor } from '../palette.js';

/** Bars drawn; the table lists every statement of the report. */
const BARS = 15;

/** A statement's label: its first line that says something (1C writes `SELECT` alone on the first line). */
export function statementLabel(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(no text)' : flat;
}

export function sqlSection(r: SqlReport, _page: ReportPage): string {
  const chart = r.statements.length === 0 ? '' : barChart({
    id: 'sql-top', title: 'DB time per statement, s', unit: 's', digits: 3, series: [{ name: 'seconds', color: seriesColor(0) }],
    rows: r.statements.slice(0, BARS).map((x) => ({ label: statementLabel(x.sql), values: [x.seconds], hint: `${x.count} executions, ${fmt(x.share * 100, 1)} % of DB time` })),
    note: 'Every DB event of the technological journal (DBPOSTGRS and the other DBMS events), grouped by statement shape: literals and parameters aside.',
  });
  const rows = table<SqlStatement>('sql-statements', [
    { head: 'DB time, s', numeric: true, cell: (x) => `<strong>${esc(fmt(x.seconds))}</strong>` },
    { head: 'Share', numeric: true, cell: (x) => `${esc(fmt(x.share * 100, 1))} %` },
    { head: 'Executions', numeric: true, cell: (x) => esc(fmt(x.count, 0)) },
    { head: 'Mean, ms', numeric: true, cell: (x) => esc(fmt(x.mean_ms)) },
    { head: 'p95, ms', numeric: true, cell: (x) => esc(fmt(x.p95_ms)) },
    { head: 'Rows', numeric: true, cell: (x) => esc(fmt(x.rows, 0)) },
    { head: 'Run by (context · key operation)', cell: (x) => x.contexts.map((c) => `<span class="ctx" title="${esc(c.context)}">${esc(clip(c.context, 70))}</span>${c.operation ? ` · ${esc(c.operation)}` : ''} <span class="muted">(${esc(fmt(c.count, 0))})</span>`).join('<br>') },
    { head: 'Statement', cell: (x) => `<code title="${esc(x.sql)}">${esc(clip(statementLabel(x.sql), 160))}</code>` },
  ], r.statements);
  return `<section id="sql"><h2>Top statements</h2>
<p>${esc(fmt(r.total.count, 0))} executions of ${esc(fmt(r.total.statements, 0))} statement shapes, ${esc(fmt(r.total.seconds))} s of DB time in all${r.total.statements > r.statements.length ? `; the ${r.statements.length} with the most time are listed` : ''}.</p>
${chart}
${r.statements.length === 0 ? '<p class="empty">No DB statements in this window.</p>' : rows}
</section>`;
}
