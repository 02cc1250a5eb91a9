// The schema a process that owns it puts in place at start-up (`sink`, `run`, `ingest`): one server's or the embedded
// engine's migrations, or a cluster's DDL (docs/deploy.md §3), then the retention TTLs on the tables that hold rows.
import type { Store } from './clickhouse.js';
import { migrate } from './migrations.js';
import { applyClusterPlan, clusterPlan } from './cluster-migrations.js';
import { applyRetention, type RetentionConfig, type RetentionTable } from './retention.js';

export interface SchemaTarget {
  cluster: { name: string; replicated: boolean } | null;
  retention: RetentionConfig;
  tables: readonly RetentionTable[];
}

/** Migrations (their names, or `N cluster statements`) and retention changes made now, for the log. */
export async function prepareSchema(store: Store, t: SchemaTarget): Promise<{ applied: string[]; retained: string[] }> {
  if (t.cluster === null) {
    const applied = await migrate(store);
    return { applied, retained: await applyRetention(store, t.retention, t.tables) };
  }
  const r = await applyClusterPlan(store.client, clusterPlan({ cluster: t.cluster.name, replicated: t.cluster.replicated }));
  const retained = await applyRetention(store, t.retention, t.tables, { cluster: t.cluster.name });
  return { applied: r.applied > 0 ? [`${r.applied} cluster statements`] : [], retained };
}
