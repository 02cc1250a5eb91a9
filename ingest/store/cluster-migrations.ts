// `perfpipe migrate --cluster NAME`: applies the cluster DDL (cluster-ddl.ts) one statement at a time and records
// each statement once the cluster accepted it, so that a migration broken off half-way (a node down past the
// distributed DDL timeout, a ^C) resumes at the statement that did not finish (docs/deploy.md §3). Every statement
// is safe to run again (IF NOT EXISTS, settings), so a record lost with its node costs a repeat, never a failure.
import type { ClickHouseClient } from '@clickhouse/client';
import { clusterMigrations, type ClusterOptions } from './cluster-ddl.js';
import { loadMigrations, type Migration } from './migrations.js';

export const CLUSTER_STATE_TABLE = 'schema_migrations_cluster';

/**
 * Where the cluster's migration state lives. Replicated: one table on every node of the cluster (a Keeper path
 * without {shard}, replica names `{shard}-{replica}` unique across shards), so a resume through any node sees it.
 * Sharded only: on each node, written through the node perfpipe talks to.
 */
export function stateTableDdl(o: ClusterOptions): string {
  const engine = o.replicated
    ? "ReplicatedReplacingMergeTree('/clickhouse/tables/perfpipe/{database}/{table}', '{shard}-{replica}', applied_at)"
    : 'ReplacingMergeTree(applied_at)';
  return `CREATE TABLE IF NOT EXISTS ${CLUSTER_STATE_TABLE} ON CLUSTER ${o.cluster}
(
    version UInt32,
    name String,
    statement UInt32,
    checksum String,
    applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ${engine}
ORDER BY (version, statement)`;
}

export interface ClusterPlan {
  options: ClusterOptions;
  /** The state table first, then every migration's cluster statements. */
  migrations: Migration[];
}

export function clusterPlan(options: ClusterOptions, migrations = loadMigrations()): ClusterPlan {
  // A file's statements differ between the two engines' forms: a switch of form runs them again.
  const form = options.replicated ? 'replicated' : 'sharded';
  return { options, migrations: clusterMigrations(migrations, options).map((m) => ({ ...m, checksum: `${m.checksum}-${form}` })) };
}

/** The whole DDL as text, for `--print`: a person reviews it or runs it with clickhouse-client. */
export function printPlan(plan: ClusterPlan): string {
  const parts = [`-- perfpipe cluster DDL: cluster ${plan.options.cluster}, ${plan.options.replicated ? 'Replicated' : 'non-replicated'} local tables\n${stateTableDdl(plan.options)};`];
  for (const m of plan.migrations) parts.push(`-- ${m.name}\n${m.statements.map((s) => `${s};`).join('\n\n')}`);
  return `${parts.join('\n\n')}\n`;
}

export interface ApplyOptions {
  /** Stops between two statements; what ran is recorded, the rest runs at the next call. */
  signal?: AbortSignal;
  /** Each statement just before it is sent, for progress lines. */
  onStatement?: (migration: string, index: number, statement: string) => void;
  /** Sends one statement; default `client.command`. The one-shard stand-in of the tests strips ON CLUSTER here. */
  send?: (statement: string) => Promise<void>;
}

export interface ApplyResult {
  /** Statements sent now. */
  applied: number;
  /** Statements recorded by an earlier call, not sent again. */
  skipped: number;
}

export async function applyClusterPlan(client: ClickHouseClient, plan: ClusterPlan, o: ApplyOptions = {}): Promise<ApplyResult> {
  const send = o.send ?? (async (query: string) => { await client.command({ query }); });
  await send(stateTableDdl(plan.options));
  const rs = await client.query({ query: `SELECT version, statement, checksum FROM ${CLUSTER_STATE_TABLE} FINAL`, format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ version: number; statement: number; checksum: string }>()).map((r) => `${r.version}/${r.statement}/${r.checksum}`));
  let applied = 0;
  let skipped = 0;
  for (const m of plan.migrations) {
    for (const [index, statement] of m.statements.entries()) {
      if (done.has(`${m.version}/${index}/${m.checksum}`)) {
        skipped++;
        continue;
      }
      if (o.signal?.aborted) return { applied, skipped };
      o.onStatement?.(m.name, index, statement);
      await send(statement);
      await client.insert({ table: CLUSTER_STATE_TABLE, values: [{ version: m.version, name: m.name, statement: index, checksum: m.checksum }], format: 'JSONEachRow' });
      applied++;
    }
  }
  return { applied, skipped };
}
