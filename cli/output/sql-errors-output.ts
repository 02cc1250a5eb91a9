// `report sql` and `report errors` for people: aligned tables or CSV, one row per statement or error group, with the
// lists (contexts, operations, users) joined into one cell.
import type { SqlReport } from '../../queries/reports/sql-report.js';
import type { ErrorsReport } from '../../queries/reports/errors-report.js';
import { rowsCsv, rowsTable } from './rows-output.js';

type Format = 'table' | 'csv';

const sections = (parts: Array<[string, Record<string, unknown>[]]>, format: Format): string =>
  parts.map(([title, rows]) => (format === 'csv' ? `# ${title}\n${rowsCsv(rows)}` : `${title}\n${rowsTable(rows)}`)).join('\n');

export function sqlText(r: SqlReport, format: Format): string {
  const rows = r.statements.map((x) => ({
    seconds: x.seconds, share: x.share, count: x.count, mean_ms: x.mean_ms, p95_ms: x.p95_ms, rows: x.rows, rows_affected: x.rows_affected,
    operations: x.operations.join('; '), contexts: x.contexts.map((c) => c.context).join('; '), sql_hash: x.sql_hash, sql: x.sql,
  }));
  const title = `statements, most DB time first (${r.statements.length} of ${r.total.statements}; ${r.total.count} executions, ${r.total.seconds} s in all)`;
  return sections([[title, rows]], format);
}

export function errorsText(r: ErrorsReport, format: Format): string {
  const oneC = r.one_c.map((e) => ({
    count: e.count, event: e.event, exception: e.exception, where: e.descr_first, first: e.first_ts, last: e.last_ts,
    users: e.users_count, contexts: e.contexts.map((c) => c.context).join('; '), descr: e.descr,
  }));
  const pg = r.postgresql.map((e) => ({
    count: e.count, severity: e.severity, sqlstate: e.sqlstate, pattern: e.pattern, first: e.first_ts, last: e.last_ts,
    databases: e.databases.join(' '), users: e.users.join(' '),
  }));
  return sections([['1C errors (EXCP, QERR), most frequent first', oneC], ['PostgreSQL errors (ERROR, FATAL, PANIC) by SQLSTATE and message pattern', pg]], format);
}
