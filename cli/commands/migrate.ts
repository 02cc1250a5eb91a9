// `perfpipe migrate`: applies the schema to a store, or with `--cluster NAME` prints (`--print`) or applies the DDL
// of a sharded ClickHouse cluster, `--replicated` for Replicated* local tables (docs/deploy.md §3).
import { DEFAULT_DATA_DIR, openStore } from '../../ingest/store/clickhouse.js';
import { loadMigrations, migrate } from '../../ingest/store/migrations.js';
import { applyClusterPlan, clusterPlan, printPlan } from '../../ingest/store/cluster-migrations.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags, STORE_OPTIONS } from '../flags/args.js';

const USAGE = 'perfpipe migrate [--data DIR | --clickhouse URL] [--cluster NAME [--replicated]] [--print]';

export async function migrateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...STORE_OPTIONS, cluster: { type: 'string' }, replicated: { type: 'boolean' }, print: { type: 'boolean' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  if (positionals.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(positionals[0])}\nusage: ${USAGE}`);
  if (values.replicated && values.cluster === undefined) throw new ConfigError(`--replicated needs --cluster NAME\nusage: ${USAGE}`);
  const plan = values.cluster === undefined ? null : clusterPlan({ cluster: values.cluster, replicated: values.replicated ?? false });
  if (values.print) {
    process.stdout.write(plan ? printPlan(plan) : `${loadMigrations().map((m) => `-- ${m.name}\n${m.statements.map((s) => `${s};`).join('\n\n')}`).join('\n\n')}\n`);
    return 0;
  }
  if (plan && !values.clickhouse) throw new ConfigError(`--cluster applies to a ClickHouse server: give --clickhouse URL (or --print)\nusage: ${USAGE}`);
  const store = await openStore(values.clickhouse ? { clickhouse: values.clickhouse } : { data: values.data ?? DEFAULT_DATA_DIR });
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  try {
    if (plan === null) {
      const applied = await migrate(store);
      process.stdout.write(`${applied.length} migrations applied${applied.length > 0 ? `: ${applied.join(', ')}` : ''} on ${store.where}\n`);
      return 0;
    }
    const r = await applyClusterPlan(store.client, plan, {
      signal: abort.signal,
      onStatement: (name, index) => process.stderr.write(`perfpipe: ${name} statement ${index + 1}\n`),
    });
    const total = plan.migrations.reduce((a, m) => a + m.statements.length, 0);
    const left = total - r.applied - r.skipped;
    process.stdout.write(`cluster ${plan.options.cluster}: ${r.applied} statements applied, ${r.skipped} applied before${left > 0 ? `, ${left} left (stopped; run again to resume)` : ''} on ${store.where}\n`);
    return left > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', stop);
    await store.close();
  }
}
