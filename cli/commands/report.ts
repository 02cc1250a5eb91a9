// `perfpipe report <name>`: a named report over the store, as JSON for scripts, a table/CSV for people, or with
// `--html FILE` one self-contained page of charts and tables (queries/report-html/; `report all --html` has every section).
// Each report is one SQL file in queries/reports/ plus the shaping of its rows; times are ISO-8601 or Unix s.
import { DEFAULT_DATA_DIR } from '../../ingest/store/clickhouse.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags, STORE_OPTIONS } from '../flags/args.js';
import { reportWindow } from '../flags/report-window.js';
import { windowParams } from '../../queries/reports/window-params.js';
import { openReportRows, type ReportParams, type StoreTarget } from '../../queries/reports/report-rows.js';
import { apdexCsv, apdexReport, apdexTable } from '../../queries/reports/apdex-report.js';
import { fetchLocksReport, LOCK_EVENTS_LIMIT, locksText } from '../../queries/reports/locks-report.js';
import { openStoreAccess } from '../../queries/store-access.js';
import { rowsCsv, rowsTable } from '../output/rows-output.js';
import { fetchPgWaitsReport } from '../../queries/reports/pg-waits-report.js';
import { pgWaitsText } from '../output/pg-waits-report-output.js';
import { runCompare } from '../output/run-compare.js';
import { fetchSqlReport } from '../../queries/reports/sql-report.js';
import { fetchErrorsReport } from '../../queries/reports/errors-report.js';
import { errorsText, sqlText } from '../output/sql-errors-output.js';
import { fetchWhyReport } from '../../queries/reports/why-report.js';
import { whyText } from '../output/why-output.js';
import { runWindow } from './runs.js';
import { reportRunsCommand } from './report-runs.js';
import { reportParamsFromConfig } from '../../queries/reports/key-operation-params.js';
import { isValidTimeZone } from '../../parsers/tj/event-time.js';
import { systemTimeZone } from '../../ingest/source/tj/tj-source-config.js';
import { collectComparePage, collectReportPage, SECTIONS, type SectionName } from '../../queries/report-html/collect-page.js';
import { writeReportPage } from '../../queries/report-html/render/write-page.js';

const USAGE = 'perfpipe report (apdex | locks | pg-locks | pg-waits | sql | errors | why | all | run-compare A B | runs) [--data DIR | --clickhouse URL] [--run NAME | --from TIME --to TIME] [--config FILE] [--operation NAME (why)] [--format table|json|csv | --html FILE [--tz ZONE]]';
const FORMATS = ['table', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

interface Report {
  /** Renders the report; `rows` fetches one queries/reports/<name>.sql with the window's parameters. */
  render(rows: (name: string, extra?: ReportParams) => Promise<Record<string, unknown>[]>, format: Format, options: ReportOptions): Promise<string>;
}

/** Flags only some reports read. */
interface ReportOptions { operation: string }

const REPORTS: Record<string, Report> = {
  apdex: {
    async render(rows, format) {
      const r = await rows('apdex');
      return format === 'json' ? `${JSON.stringify(apdexReport(r))}\n` : format === 'csv' ? apdexCsv(r) : apdexTable(r);
    },
  },
  'pg-locks': {
    async render(rows, format) {
      const episodes = await rows('pg-lock-waits', { limit: LOCK_EVENTS_LIMIT });
      return format === 'json' ? `${JSON.stringify({ episodes })}\n` : format === 'csv' ? rowsCsv(episodes) : rowsTable(episodes);
    },
  },
  'pg-waits': {
    async render(rows, format) {
      const report = await fetchPgWaitsReport(rows);
      return format === 'json' ? `${JSON.stringify(report)}\n` : pgWaitsText(report, format);
    },
  },
  locks: {
    async render(rows, format) {
      const report = await fetchLocksReport(rows, { top: { regions: 20, contexts: 20 }, waits: true });
      return format === 'json' ? `${JSON.stringify(report)}\n` : locksText(report, format);
    },
  },
  sql: {
    async render(rows, format) {
      const report = await fetchSqlReport(rows);
      return format === 'json' ? `${JSON.stringify(report)}\n` : sqlText(report, format);
    },
  },
  errors: {
    async render(rows, format) {
      const report = await fetchErrorsReport(rows);
      return format === 'json' ? `${JSON.stringify(report)}\n` : errorsText(report, format);
    },
  },
  why: {
    async render(rows, format, options) {
      const report = await fetchWhyReport(rows, options.operation);
      return format === 'json' ? `${JSON.stringify(report)}\n` : whyText(report, format);
    },
  },
};

/** The HTML page (`--html FILE`) of each report; `all` is the full page and has no text form. */
const HTML_PAGES: Record<string, { title: string; sections: readonly SectionName[] }> = {
  apdex: { title: 'APDEX report', sections: ['apdex'] },
  locks: { title: '1C managed-lock report', sections: ['locks'] },
  'pg-locks': { title: 'PostgreSQL lock report', sections: ['pg'] },
  'pg-waits': { title: 'PostgreSQL wait report', sections: ['pg_waits'] },
  sql: { title: 'Top statements', sections: ['sql'] },
  errors: { title: 'Errors', sections: ['errors'] },
  why: { title: 'Where the time went', sections: ['why'] },
  all: { title: 'Load test report', sections: SECTIONS },
};

/** Every report `perfpipe report` runs (perfpipe --help names each: cli/main.test.ts). */
export const REPORT_NAMES: readonly string[] = [...new Set([...Object.keys(REPORTS), ...Object.keys(HTML_PAGES), 'run-compare', 'runs'])];

interface HtmlFlags { html?: string | undefined; tz?: string | undefined; format?: string | undefined }

/** The page's time zone (default the machine's), checked before any query runs; --html excludes --format. */
function htmlZone(values: HtmlFlags): string {
  if (values.format !== undefined) throw new ConfigError('--html and --format exclude each other: the page is its own format');
  const tz = values.tz ?? systemTimeZone();
  if (!isValidTimeZone(tz)) throw new ConfigError(`--tz: ${JSON.stringify(tz)} is not an IANA zone; expected e.g. "Europe/Moscow"`);
  return tz;
}

export async function reportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...STORE_OPTIONS, run: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string', short: 'f' },
    html: { type: 'string' }, tz: { type: 'string' }, config: { type: 'string', short: 'c' }, operation: { type: 'string' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const [name, ...extra] = positionals;
  if (name === undefined) throw new ConfigError(`report: no report named\nusage: ${USAGE}`);
  if (values.tz !== undefined && values.html === undefined) throw new ConfigError('--tz sets the time zone of the HTML page; give --html FILE too');
  if (values.operation !== undefined && name !== 'why') throw new ConfigError('--operation is a filter of `report why`');
  if (name === 'run-compare') return compareCommand(extra, values);
  if (name === 'runs') {
    if (extra.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(extra[0])}\nusage: ${USAGE}`);
    return reportRunsCommand(values, values.html === undefined ? null : htmlZone(values));
  }
  const report = REPORTS[name];
  if (report === undefined && HTML_PAGES[name] === undefined) throw new ConfigError(`report: ${JSON.stringify(name)} is not a report; expected one of ${REPORT_NAMES.join(', ')}`);
  if (extra.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(extra[0])}\nusage: ${USAGE}`);
  if (values.html !== undefined) return htmlCommand(name, values.html, htmlZone(values), values);
  if (report === undefined) throw new ConfigError(`report ${name}: the full report is an HTML page; give --html FILE`);
  const format = (values.format ?? 'table') as Format;
  if (!FORMATS.includes(format)) throw new ConfigError(`--format: ${JSON.stringify(values.format)} is not one of ${FORMATS.join(', ')}`);
  const target: StoreTarget = { data: values.data ?? DEFAULT_DATA_DIR, ...(values.clickhouse ? { clickhouse: values.clickhouse } : {}) };
  if (values.run !== undefined && (values.from !== undefined || values.to !== undefined)) throw new ConfigError('--run and --from/--to exclude each other: a run is a window');
  const window = windowParams(values.run === undefined ? reportWindow(values.from, values.to) : await namedRunWindow(target, values.run));
  const source = await openReportRows(target, reportParamsFromConfig(values.config));
  try {
    process.stdout.write(await report.render((sql, more = {}) => source.rows(sql, { ...window, ...more }), format, { operation: values.operation ?? '' }));
  } finally {
    await source.close();
  }
  return 0;
}

/** `--html FILE`: the report's sections as one self-contained page (queries/report-html/), its path on stdout. */
async function htmlCommand(name: string, file: string, timeZone: string, values: { data?: string | undefined; clickhouse?: string | undefined; run?: string | undefined; from?: string | undefined; to?: string | undefined; config?: string | undefined }): Promise<number> {
  const target: StoreTarget = { data: values.data ?? DEFAULT_DATA_DIR, ...(values.clickhouse ? { clickhouse: values.clickhouse } : {}) };
  if (values.run !== undefined && (values.from !== undefined || values.to !== undefined)) throw new ConfigError('--run and --from/--to exclude each other: a run is a window');
  const asked = values.run === undefined ? reportWindow(values.from, values.to) : await namedRunWindow(target, values.run);
  const params = windowParams(asked);
  // A side the reader left open is open on the page too: the time axis then ends where the data does.
  const window = values.run !== undefined ? asked : { from: values.from === undefined ? null : asked.from, to: values.to === undefined ? null : asked.to };
  const source = await openReportRows(target, reportParamsFromConfig(values.config));
  try {
    const { title, sections } = HTML_PAGES[name] ?? HTML_PAGES.all!;
    const page = await collectReportPage((sql, more = {}) => source.rows(sql, { ...params, ...more }), sections, {
      title, run: values.run ?? null, window, timeZone, generatedAt: Date.now(),
    });
    const written = writeReportPage(file, page);
    process.stdout.write(`wrote ${written.path} (${Math.ceil(written.bytes / 1024)} KB)\n`);
  } finally {
    await source.close();
  }
  return 0;
}

async function namedRunWindow(target: StoreTarget, name: string): Promise<{ from: number; to: number }> {
  const access = await openStoreAccess(target);
  try {
    return await runWindow(access, name);
  } finally {
    await access.close();
  }
}

async function compareCommand(names: string[], values: { data?: string | undefined; clickhouse?: string | undefined; format?: string | undefined; config?: string | undefined } & HtmlFlags): Promise<number> {
  const timeZone = values.html === undefined ? null : htmlZone(values);
  const format = (values.format ?? 'table') as Format;
  if (!FORMATS.includes(format)) throw new ConfigError(`--format: ${JSON.stringify(values.format)} is not one of ${FORMATS.join(', ')}`);
  if (names.length !== 2) throw new ConfigError(`report run-compare: give two run names\nusage: ${USAGE}`);
  const target: StoreTarget = { data: values.data ?? DEFAULT_DATA_DIR, ...(values.clickhouse ? { clickhouse: values.clickhouse } : {}) };
  const runs = [];
  for (const name of names) runs.push({ name, window: await namedRunWindow(target, name) });
  const source = await openReportRows(target, reportParamsFromConfig(values.config));
  try {
    if (values.html !== undefined && timeZone !== null) {
      const written = writeReportPage(values.html, await collectComparePage(source, runs, { title: 'Run comparison', timeZone, generatedAt: Date.now() }));
      process.stdout.write(`wrote ${written.path} (${Math.ceil(written.bytes / 1024)} KB)\n`);
    } else {
      process.stdout.write(await runCompare(source, runs, format));
    }
  } finally {
    await source.close();
  }
  return 0;
}
