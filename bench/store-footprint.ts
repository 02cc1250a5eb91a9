// Bytes per event on disk after compression (docs/deploy.md §4, the capacity model): a simulated load test
// (`perfpipe simulate`) ingested by `perfpipe ingest`, then the store's active parts (system.parts) per table, as
// inserted (LZ4 text, 045_insert_codecs.sql) and after the merges have run to one part per partition (OPTIMIZE FINAL).
// The day-old recompression to ZSTD(3) is not waited for: bench/engine-doors.ts measured it 1.67× smaller on text.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../test/support/cli.js';
import { openStore } from '../ingest/store/clickhouse.js';
import type { BenchResult, Figure } from './figures.js';

export interface StoreFootprintOptions { users: number; durationS: number; rate: number }

interface PartRow { table: string; rows: string; compressed: string; on_disk: string }

export async function run(o: StoreFootprintOptions): Promise<BenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'perfpipe-footprint-'));
  try {
    const out = join(work, 'run');
    const data = join(work, 'data');
    const sim = await runCli(['simulate', '--out', out, '--users', String(o.users), '--duration', `${o.durationS}s`, '--rate', String(o.rate), '--seed', '9']);
    if (sim.code !== 0) throw new Error(`simulate failed: ${sim.stderr}`);
    const expected = JSON.parse(readFileSync(join(out, 'expected.json'), 'utf8')) as { tj: { events: number; bytes: number }; pg: { entries: number } };
    const ingest = await runCli(['ingest', '--tj', join(out, 'tj'), '--pg', join(out, 'pg'), '--pg-prefix', '%m [%p] %q%u@%d ', '--atop', join(out, 'atop'),
      '--apdex', join(out, 'apdex'), '--tz', 'Europe/Moscow', '--data', data]);
    if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);
    const store = await openStore({ data });
    const parts = async (): Promise<Map<string, PartRow>> => {
      const rs = await store.client.query({ query: `SELECT table, sum(rows) AS rows, sum(data_compressed_bytes) AS compressed, sum(bytes_on_disk) AS on_disk
        FROM system.parts WHERE active AND database = currentDatabase() GROUP BY table`, format: 'JSONEachRow' });
      return new Map((await rs.json<PartRow>()).map((r) => [r.table, r]));
    };
    try {
      const inserted = await parts();
      for (const table of inserted.keys()) await store.client.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
      const merged = await parts();
      const all = (m: Map<string, PartRow>): number => [...m.values()].reduce((a, r) => a + Number(r.on_disk), 0);
      const tj = (m: Map<string, PartRow>): number => Number(m.get('tj_events')?.on_disk ?? 0);
      const figures: Figure[] = [
        { name: 'tj_events bytes on disk per TJ event, as inserted', value: tj(inserted) / expected.tj.events, unit: 'B/event' },
        { name: 'tj_events bytes on disk per TJ event, merged', value: tj(merged) / expected.tj.events, unit: 'B/event' },
        { name: 'every table (rollups, pg_log, atop, apdex) per TJ event, merged', value: all(merged) / expected.tj.events, unit: 'B/event' },
        { name: 'TJ text per event (the files)', value: expected.tj.bytes / expected.tj.events, unit: 'B/event' },
        { name: 'TJ text / tj_events on disk, merged', value: expected.tj.bytes / tj(merged), unit: '×' },
      ];
      const perTable = [...merged.values()].sort((a, b) => Number(b.on_disk) - Number(a.on_disk)).slice(0, 8)
        .map((r) => `${r.table}: ${r.rows} rows, ${r.on_disk} B on disk merged (${(Number(r.on_disk) / Math.max(1, Number(r.rows))).toFixed(1)} B/row)`);
      return {
        bench: 'store-footprint',
        input: { users: o.users, duration_s: o.durationS, rate: o.rate, tj_events: expected.tj.events, tj_bytes: expected.tj.bytes, pg_entries: expected.pg.entries },
        figures, ok: Number(merged.get('tj_events')?.rows ?? 0) === expected.tj.events, notes: perTable,
      };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
