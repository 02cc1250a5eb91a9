// `perfpipe sql "SELECT …"`: ad-hoc SQL on the store. With a `run` daemon holding the embedded data
// directory, the query goes to the daemon's local port; otherwise the store is opened directly.
import { DEFAULT_DATA_DIR, openStore } from '../../ingest/store/clickhouse.js';
import { migrate } from '../../ingest/store/migrations.js';
import { OUTPUT_FORMATS, type OutputFormat, runQuery } from '../../ingest/store/query.js';
import { readDaemonFile } from '../../queries/daemon-file.js';
import { daemonSql } from '../../queries/daemon-sql.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags, STORE_OPTIONS } from '../flags/args.js';

const USAGE = 'perfpipe sql "SELECT …" [--data DIR | --clickhouse URL] [--format table|json|csv|tsv]';

export async function sqlCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, { ...STORE_OPTIONS, format: { type: 'string', short: 'f' } }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const query = positionals.join(' ').trim();
  if (query === '') throw new ConfigError(`sql: no query given\nusage: ${USAGE}`);
  const format = (values.format ?? 'table') as OutputFormat;
  if (!(format in OUTPUT_FORMATS)) throw new ConfigError(`--format: ${JSON.stringify(format)} is not one of ${Object.keys(OUTPUT_FORMATS).join(', ')}`);
  const text = values.clickhouse ? await direct(query, format, { clickhouse: values.clickhouse }) : await embedded(query, format, values.data ?? DEFAULT_DATA_DIR);
  process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  return 0;
}

async function embedded(query: string, format: OutputFormat, data: string): Promise<string> {
  const daemon = readDaemonFile(data);
  if (!daemon) return direct(query, format, { data }, true);
  return daemonSql(daemon, query, format);
}

async function direct(query: string, format: OutputFormat, target: { data?: string; clickhouse?: string }, ensureSchema = false): Promise<string> {
  const store = await openStore(target);
  try {
    if (ensureSchema) await migrate(store);
    return await runQuery(store.client, query, format);
  } finally {
    await store.close();
  }
}
