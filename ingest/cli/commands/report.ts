// `perfpipe report <name>`: a named report over the store, as JSON for scripts or a table/CSV for people.
// Each report is one SQL file in queries/reports/ plus the shaping of its rows; times are ISO-8601 or Unix s.
import { DEFAULT_DATA_DIR } from '../../store/clickhouse.js';
import { ConfigError } from '../../errors.js';
import { parseFlags, STORE_OPTIONS } from '../args.js';
import { reportWindow, windowParams } from '../report-window.js';
import { openReportRows, type ReportParams, type StoreTarget } from '../report-rows.js';
import { apdexCsv, apdexReport, apdexTable } from '../apdex-report-output.js';
import { locksReport, locksText } from '../locks-report-output.js';
import { openStoreAccess } from '../store-access.js';
import { rowsCsv, rowsTable } from '../rows-output.js';
import { runCompare } from '../run-compare.js';
import { runWindow } from './runs.js';

const USAGE = 'perfpipe report (apdex | locks | pg-locks | run-compare A B) [--data DIR | --clickhouse URL] [--run NAME | --from TIME --to TIME] [--format table|json|csv]';
const FORMATS = ['table', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

interface Report {
  /** Renders the report; `rows` fetches one queries/reports/<name>.sql with the window's parameters. */
  render(rows: (name: string, extra?: ReportParams) => Promise<Record<string, unknown>[]>, format: Format): Promise<string>;
}

const REPORTS: Record<string, Report> = {
  apdex: {
    async render(rows, format) {
      const r = await rows('apdex');
      return format === 'json' ? `${JSON.stringify(apdexReport(r))}\n` : format === 'csv' ? apdexCsv(r) : apdexTable(r);
    },
  },
  'pg-locks': {
    async render(rows, format) {
      const episodes = await rows('pg-lock-waits', { limit: 100_000 });
      return format === 'json' ? `${JSON.stringify({ episodes })}\n` : format === 'csv' ? rowsCsv(episodes) : rowsTable(episodes);
    },
  },
  locks: {
    async render(rows, format) {
      // The victim and wait queries cap their rows; the cap is far above a load test's lock events.
      const limit = { limit: 100_000 };
      const report = locksReport(
        await rows('tj-lock-victims', limit), await rows('tj-lock-deadlocks', limit),
        await rows('tj-lock-wait-events', limit), await rows('tj-lock-waits', { limit: 20 }),
      );
      return format === 'json' ? `${JSON.stringify(report)}\n` : locksText(report, format);
    },
  },
};

export async function reportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...STORE_OPTIONS, run: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string', short: 'f' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const [name, ...extra] = positionals;
  if (name === undefined) throw new ConfigError(`report: no report named\nusage: ${USAGE}`);
  if (name === 'run-compare') return compareCommand(extra, values);
  const report = REPORTS[name];
  if (report === undefined) throw new ConfigError(`report: ${JSON.stringify(name)} is not a report; expected one of ${[...Object.keys(REPORTS), 'run-compare'].join(', ')}`);
  if (extra.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(extra[0])}\nusage: ${USAGE}`);
  const format = (values.format ?? 'table') as Format;
  if (!FORMATS.includes(format)) throw new ConfigError(`--format: ${JSON.stringify(values.format)} is not one of ${FORMATS.join(', ')}`);
  const target: StoreTarget = { data: values.data ?? DEFAULT_DATA_DIR, ...(values.clickhouse ? { clickhouse: values.clickhouse } : {}) };
  if (values.run !== undefined && (values.from !== undefined || values.to !== undefined)) throw new ConfigError('--run and --from/--to exclude each other: a run is a window');
  const window = windowParams(values.run === undefined ? reportWindow(values.from, values.to) : await namedRunWindow(target, values.run));
  const source = await openReportRows(target);
  try {
    process.stdout.write(await report.render((sql, more = {}) => source.rows(sql, { ...window, ...more }), format));
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

async function compareCommand(names: string[], values: { data?: string | undefined; clickhouse?: string | undefined; format?: string | undefined }): Promise<number> {
  const format = (values.format ?? 'table') as Format;
  if (!FORMATS.includes(format)) throw new ConfigError(`--format: ${JSON.stringify(values.format)} is not one of ${FORMATS.join(', ')}`);
  if (names.length !== 2) throw new ConfigError(`report run-compare: give two run names\nusage: ${USAGE}`);
  const target: StoreTarget = { data: values.data ?? DEFAULT_DATA_DIR, ...(values.clickhouse ? { clickhouse: values.clickhouse } : {}) };
  const runs = [];
  for (const name of names) runs.push({ name, window: await namedRunWindow(target, name) });
  const source = await openReportRows(target);
  try {
    process.stdout.write(await runCompare(source, runs, format));
  } finally {
    await source.close();
  }
  return 0;
}
