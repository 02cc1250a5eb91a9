// The "Errors" section (`report errors`): 1C exceptions grouped by exception and where they were raised, and
// PostgreSQL ERROR/FATAL/PANIC grouped by SQLSTATE and message pattern, most frequent first.
import type { ReportPage } from '../report-page.js';
import type { ErrorsReport, OneCError, PgError } from '../../reports/errors-report.js';
import { clip, esc, fmt, table } from '../html.js';
import { formatInstant, parseUtc } from '../time-format.js';

export function errorsSection(r: ErrorsReport, page: ReportPage): string {
  const tz = page.timeZone;
  const when = (ts: string): string => esc(formatInstant(parseUtc(ts), tz).slice(0, 19));
  const oneC = table<OneCError>('errors-1c', [
    { head: 'Count', numeric: true, cell: (e) => `<strong>${esc(fmt(e.count, 0))}</strong>` },
    { head: 'Event', cell: (e) => esc(e.event) },
    { head: 'Exception', cell: (e) => esc(e.exception) },
    { head: 'Raised at', cell: (e) => `<code title="${esc(e.descr)}">${esc(clip(e.descr_first, 80))}</code>` },
    { head: 'First', cell: (e) => when(e.first_ts) },
    { head: 'Last', cell: (e) => when(e.last_ts) },
    { head: 'Users', numeric: true, cell: (e) => `<span title="${esc(e.users.join(', '))}">${esc(fmt(e.users_count, 0))}</span>` },
    { head: 'Contexts', cell: (e) => e.contexts.map((c) => `<span class="ctx" title="${esc(c.context)}">${esc(clip(c.context, 70))}</span> <span class="muted">(${esc(fmt(c.count, 0))})</span>`).join('<br>') },
  ], r.one_c);
  const pg = table<PgError>('errors-pg', [
    { head: 'Count', numeric: true, cell: (e) => `<strong>${esc(fmt(e.count, 0))}</strong>` },
    { head: 'Severity', cell: (e) => esc(e.severity) },
    { head: 'SQLSTATE', cell: (e) => (e.sqlstate ? `<code>${esc(e.sqlstate)}</code>` : '<span class="muted">not logged</span>') },
    { head: 'Message pattern', cell: (e) => `<span title="${esc(e.example)}">${esc(clip(e.pattern, 120))}</span>` },
    { head: 'First', cell: (e) => when(e.first_ts) },
    { head: 'Last', cell: (e) => when(e.last_ts) },
    { head: 'Databases · users', cell: (e) => esc([e.databases.join(' '), e.users.join(' ')].filter((x) => x !== '').join(' · ')) },
  ], r.postgresql);
  const noState = r.postgresql.some((e) => e.sqlstate === '')
    ? '<p class="note">SQLSTATE is in the log only with <code>%e</code> in log_line_prefix, or with csvlog or jsonlog.</p>' : '';
  return `<section id="errors"><h2>Errors</h2>
<h3>1C (EXCP, QERR)</h3>
${r.one_c.length === 0 ? '<p class="empty">No 1C exceptions in this window.</p>' : oneC}
<h3>PostgreSQL (ERROR, FATAL, PANIC)</h3>
${r.postgresql.length === 0 ? '<p class="empty">No PostgreSQL errors in this window.</p>' : `${pg}${noState}`}
</section>`;
}
