// `perfpipe report runs [--format table|json|csv | --html FILE [--tz ZONE]]`: every named run, oldest first, with
// its overall APDEX, worst key operation and lock trouble (queries/reports/run-history.ts); the page adds a chart of
// APDEX across the runs with the pass mark.
import { DEFAULT_DATA_DIR } from '../../ingest/store/clickhouse.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { openReportRows, type StoreTarget } from '../../queries/reports/report-rows.js';
import { reportParamsFromConfig } from '../../queries/reports/key-operation-params.js';
import { runHistory } from '../../queries/reports/run-history.js';
import { runHistoryCsv, runHistoryJson, runHistoryTable } from '../output/run-history-output.js';
import { runHistoryPage } from '../../queries/report-html/run-history-page.js';
import { writeReportPage } from '../../queries/report-html/render/write-page.js';

export interface RunsReportFlags {
  data?: string | undefined; clickhouse?: string | undefined; config?: string | undefined; format?: string | undefined;
  run?: string | undefined; from?: string | undefined; to?: string | undefined; html?: string | undefined;
}

const FORMATS = ['table', 'json', 'csv'] as const;

/** `timeZone`: the page's zone, already checked by the caller when --html is given. */
export async function reportRunsCommand(values: RunsReportFlags, timeZone: string | null): Promise<number> {
  if (values.run !== undefined || values.from !== undefined || values.to !== undefined) {
    throw new ConfigError('report runs: every run is listed with its own window; --run, --from and --to do not apply');
  }
  const format = values.format ?? 'table';
  if (!(FORMATS as readonly string[]).includes(format)) throw new ConfigError(`--format: ${JSON.stringify(values.format)} is not one of ${FORMATS.join(', ')}`);
  const target: StoreTarget = { data: values.data ?? DEFAULT_DATA_DIR, ...(values.clickhouse ? { clickhouse: values.clickhouse } : {}) };
  const source = await openReportRows(target, reportParamsFromConfig(values.config));
  try {
    const runs = await runHistory((name, params) => source.rows(name, params));
    if (values.html !== undefined && timeZone !== null) {
      const written = writeReportPage(values.html, runHistoryPage(runs, { title: 'Run history', timeZone, generatedAt: Date.now() }));
      process.stdout.write(`wrote ${written.path} (${Math.ceil(written.bytes / 1024)} KB)\n`);
    } else {
      process.stdout.write(format === 'json' ? runHistoryJson(runs) : format === 'csv' ? runHistoryCsv(runs) : runHistoryTable(runs));
    }
  } finally {
    await source.close();
  }
  return 0;
}
