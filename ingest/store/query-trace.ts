// An env-gated trace of what the engine spends per statement (PERFPIPE_TRACE_QUERIES=FILE): each call through the
// client or the binary insert appends a line to FILE — the statement's first words, its wall ms, the engine's
// query-thread CPU ms and rows read and written in that time (the deltas of system.events, which the embedded
// engine keeps for the whole process; no query log exists there) and the process's CPU ms. Calls run one at a time
// in a backfill, so the deltas are the call's own plus any merge running beside it. For profiling only
// (bench/RESULTS.md, "where the engine's CPU goes"); off, it costs nothing.
import { appendFileSync } from 'node:fs';
import type { ClickHouseClient } from '@clickhouse/client';

const COUNTERS = ['UserTimeMicroseconds', 'SystemTimeMicroseconds', 'SelectedRows', 'InsertedRows', 'MergedRows'] as const;
type Counters = Record<(typeof COUNTERS)[number], number>;

export interface QueryTrace {
  around<T>(label: string, call: () => Promise<T>): Promise<T>;
}

/** The trace named by the environment, or null (then nothing is wrapped). */
export function queryTraceFromEnv(client: ClickHouseClient, env: NodeJS.ProcessEnv = process.env): QueryTrace | null {
  const file = env.PERFPIPE_TRACE_QUERIES;
  if (file === undefined || file === '') return null;
  const raw = { query: client.query.bind(client) };
  async function counters(): Promise<Counters> {
    const rs = await raw.query({ query: 'SELECT event, value FROM system.events WHERE event IN {names:Array(String)}', query_params: { names: COUNTERS }, format: 'JSONEachRow' });
    const out = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Counters;
    for (const r of await rs.json<{ event: keyof Counters; value: string }>()) out[r.event] = Number(r.value);
    return out;
  }
  appendFileSync(file, 'label\twall_ms\tengine_cpu_ms\tselected_rows\tinserted_rows\tmerged_rows\tprocess_cpu_ms\n');
  let chain: Promise<unknown> = Promise.resolve();
  return {
    around(label, call) {
      // One at a time, so that each line's deltas are its own call's.
      const next = chain.then(async () => {
        const before = await counters();
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        try {
          return await call();
        } finally {
          const wall = performance.now() - t0;
          const cpu = process.cpuUsage(cpu0);
          const after = await counters();
          const d = (k: keyof Counters): number => after[k] - before[k];
          appendFileSync(file, [label.replace(/\s+/g, ' ').slice(0, 100), wall.toFixed(1), ((d('UserTimeMicroseconds') + d('SystemTimeMicroseconds')) / 1000).toFixed(1),
            d('SelectedRows'), d('InsertedRows'), d('MergedRows'), ((cpu.user + cpu.system) / 1000).toFixed(1)].join('\t') + '\n');
        }
      });
      chain = next.catch(() => {});
      return next as Promise<never>;
    },
  };
}

/** The client with query, command, exec and insert traced (the same object when there is no trace). */
export function tracedClient(client: ClickHouseClient, trace: QueryTrace | null): ClickHouseClient {
  if (trace === null) return client;
  for (const method of ['query', 'command', 'exec', 'insert'] as const) {
    const original = (client[method] as (p: { query?: string; table?: string }) => Promise<unknown>).bind(client);
    (client as unknown as Record<string, unknown>)[method] = (p: { query?: string; table?: string }) =>
      trace.around(`${method} ${p.query ?? p.table ?? ''}`, () => original(p));
  }
  return client;
}
