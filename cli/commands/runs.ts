// `perfpipe runs start NAME | stop [NAME] | list`: named load-test runs, the windows reports take with `--run`.
import { DEFAULT_DATA_DIR } from '../../ingest/store/clickhouse.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags, STORE_OPTIONS } from '../flags/args.js';
import { parseTimeFlag } from '../flags/report-window.js';
import { openStoreAccess, type StoreAccess } from '../../queries/store-access.js';
import { csvText } from '../../queries/reports/csv.js';
import { recordRunContext } from './run-context-record.js';

const USAGE = 'perfpipe runs (start NAME [--at TIME] | stop [NAME] [--at TIME] | list [--format table|json|csv]) [--pg-activity URL | --config FILE] [--host NAME] [--data DIR | --clickhouse URL]';

/** Starts run {name} at {at} (Unix ms). */
export const START_RUN = 'INSERT INTO runs SELECT {name:String}, fromUnixTimestamp64Milli({at:Int64}), NULL, now64(3)';
/** Stops run {name} at {at} (Unix ms): a newer version of its row. */
export const STOP_RUN = 'INSERT INTO runs SELECT name, started_at, fromUnixTimestamp64Milli({at:Int64}), now64(3) FROM runs FINAL WHERE name = {name:String}';

export interface RunRow { name: string; started_at: string; stopped_at: string | null; duration_s: number }

// Inner names differ from the output names: a ClickHouse alias is visible to the other expressions of its SELECT.
const LIST = `SELECT name, toString(s) AS started_at, if(isNull(e), NULL, toString(e)) AS stopped_at,
  round(dateDiff('millisecond', s, coalesce(e, now64(3))) / 1000, 1) AS duration_s
  FROM (SELECT name, started_at AS s, stopped_at AS e FROM runs FINAL) ORDER BY s, name`;

/** The window of a named run in Unix seconds; an open run ends now. */
export async function runWindow(access: StoreAccess, name: string): Promise<{ from: number; to: number }> {
  const [row] = await access.rows<{ from: string; to: string }>(
    `SELECT toUnixTimestamp64Milli(started_at) AS from, toUnixTimestamp64Milli(coalesce(stopped_at, now64(3))) AS to
     FROM runs FINAL WHERE name = {name:String}`, { name });
  if (!row) throw new ConfigError(`--run: there is no run named ${JSON.stringify(name)}; see perfpipe runs list`);
  return { from: Number(row.from) / 1000, to: Number(row.to) / 1000 };
}

export async function runsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...STORE_OPTIONS, at: { type: 'string' }, format: { type: 'string', short: 'f' }, 'pg-activity': { type: 'string' }, config: { type: 'string', short: 'c' },
    host: { type: 'string' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const [action, name, ...extra] = positionals;
  if (extra.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(extra[0])}\nusage: ${USAGE}`);
  const atMs = Math.round((values.at === undefined ? Date.now() / 1000 : parseTimeFlag('at', values.at)) * 1000);
  const access = await openStoreAccess({ data: values.data ?? DEFAULT_DATA_DIR, ...(values.clickhouse ? { clickhouse: values.clickhouse } : {}) });
  try {
    switch (action) {
      case 'start': {
        if (!name) throw new ConfigError(`runs start: give the run a name\nusage: ${USAGE}`);
        const existing = await access.rows<RunRow>(LIST.replace('ORDER BY s', 'WHERE name = {name:String} ORDER BY s'), { name });
        if (existing.length > 0) throw new ConfigError(`runs start: a run named ${JSON.stringify(name)} exists already (started ${existing[0]?.started_at}); choose another name`);
        await access.run(START_RUN, { name, at: atMs });
        process.stdout.write(`run ${name} started at ${new Date(atMs).toISOString()}\n`);
        process.stdout.write(await recordRunContext(access, name, 'start', values));
        return 0;
      }
      case 'stop': {
        const open = await access.rows<RunRow>(LIST.replace('ORDER BY s', 'WHERE isNull(e) ORDER BY s'));
        const run = name ? open.find((r) => r.name === name) : open[open.length - 1];
        if (!run) throw new ConfigError(name ? `runs stop: no open run named ${JSON.stringify(name)}` : 'runs stop: no run is open');
        await access.run(STOP_RUN, { name: run.name, at: atMs });
        process.stdout.write(`run ${run.name} stopped at ${new Date(atMs).toISOString()}\n`);
        process.stdout.write(await recordRunContext(access, run.name, 'stop', values));
        return 0;
      }
      case 'list': {
        const rows = await access.rows<RunRow>(LIST);
        const format = values.format ?? 'table';
        if (format === 'json') process.stdout.write(`${JSON.stringify(rows)}\n`);
        else if (format === 'csv') process.stdout.write(csvText([['name', 'started_at', 'stopped_at', 'duration_s'], ...rows.map((r) => [r.name, r.started_at, r.stopped_at ?? '', String(r.duration_s)])]));
        else if (format === 'table') process.stdout.write(rows.length === 0 ? 'no runs\n' : rows.map((r) => `${r.name}\t${r.started_at} → ${r.stopped_at ?? '(running)'}\t${r.duration_s} s`).join('\n') + '\n');
        else throw new ConfigError(`--format: ${JSON.stringify(format)} is not one of table, json, csv`);
        return 0;
      }
      default:
        throw new ConfigError(`runs: ${JSON.stringify(action ?? '')} is not start, stop or list\nusage: ${USAGE}`);
    }
  } finally {
    await access.close();
  }
}
