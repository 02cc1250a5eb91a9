// What each materialized view on tj_events costs the engine at insert, and what the lock resolver's last step costs
// after a backfill: the same encoded segments (as `ingest` sends them: the default segment's rows, the sink's insert
// settings) inserted into fresh stores that have every view, no view, or every view but one; then, on the store with
// every view, the resolver's settle pass. CPU is the process's (all the engine's threads; this process only awaits),
// from the first insert to the last, with merges stopped: on a shared machine the merges that happen to run inside
// that window made the figures swing by half; what the views add to merges is another question (parts per insert).
// Usage: node dist/bench/tj-view-cost.js [--size-mb 200] [--seed 7] [--repeats 2] [--only all,none,tj_sql_text_mv]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { feedTjFile } from './tj-feed.js';
import { openStore, type Store } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { rowsOfRecords } from '../ingest/families/registry.js';
import { TJ_EVENTS } from '../schemas/tj-row.js';
import { segmentInsertSettings } from '../ingest/sink/clickhouse-sink.js';
import { PipelineConfigSchema } from '../ingest/config/config.js';
import { startLockResolver } from '../ingest/locks/lock-resolver.js';
import type { TjEvent } from '../schemas/tj-event.js';
import { generateTj } from './generate-tj.js';
import { benchWorkDir, isMain } from './bench-paths.js';

interface Body { body: Buffer; rows: number }
interface Cost { variant: string; insertCpuS: number; insertWallS: number; settleCpuS: number; settleWallS: number; stored: number }

const cpuS = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;

/** The materialized views that read tj_events (and the ones that read their targets), from the store itself. */
async function viewsOnTjEvents(store: Store): Promise<string[]> {
  const all = await (await store.client.query({ query: "SELECT name, as_select FROM system.tables WHERE database = currentDatabase() AND engine = 'MaterializedView' ORDER BY name", format: 'JSONEachRow' })).json<{ name: string; as_select: string }>();
  return all.filter((v) => /\bFROM (default\.)?tj_events\b/.test(v.as_select)).map((v) => v.name);
}

async function oneVariant(blocks: Body[], data: string, variant: string, settle: boolean): Promise<Cost> {
  rmSync(data, { recursive: true, force: true });
  const store = await openStore({ data });
  try {
    await migrate(store);
    const views = await viewsOnTjEvents(store);
    const drop = variant === 'all' ? [] : variant === 'none' ? views : variant.startsWith('only:') ? views.filter((v) => v !== variant.slice(5)) : [variant];
    for (const v of drop) await store.client.command({ query: `DROP VIEW ${v}` });
    await store.client.command({ query: 'SYSTEM STOP MERGES' });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const [n, b] of blocks.entries()) {
      await store.insertFormatted({ table: 'tj_events', columns: TJ_EVENTS.names, structure: TJ_EVENTS.structure, format: 'RowBinary', body: b.body, settings: segmentInsertSettings(`cost-${n}`) });
    }
    const insertWallS = (performance.now() - t0) / 1000;
    const insertCpuS = cpuS(process.cpuUsage(cpu0));
    let settleCpuS = 0;
    let settleWallS = 0;
    if (settle) {
      const cpu1 = process.cpuUsage();
      const t1 = performance.now();
      await store.client.command({ query: 'SYSTEM START MERGES' });
      const resolver = startLockResolver({ client: store.client, mode: 'backfill' });
      await resolver.settleAll();
      await resolver.stop();
      settleWallS = (performance.now() - t1) / 1000;
      settleCpuS = cpuS(process.cpuUsage(cpu1));
    }
    const rs = await store.client.query({ query: 'SELECT count() AS n FROM tj_events', format: 'JSONEachRow' });
    const stored = Number((await rs.json<{ n: string }>())[0]?.n ?? -1);
    return { variant, insertCpuS, insertWallS, settleCpuS, settleWallS, stored };
  } finally {
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}

export async function run(o: { sizeMb?: number; seed?: number; repeats?: number; only?: string[] } = {}): Promise<Cost[]> {
  const input = generateTj({ sizeMb: o.sizeMb ?? 200, seed: o.seed ?? 7 });
  const events: TjEvent[] = [];
  for (const file of input.files) feedTjFile(input, file, (out) => events.push(...out.events));
  const perSegment = Math.max(1, Math.round(PipelineConfigSchema.parse({}).segment_bytes / (input.bytes / events.length)));
  const blocks: Body[] = [];
  for (let i = 0; i < events.length; i += perSegment) {
    const [t] = rowsOfRecords('tj', events.slice(i, i + perSegment)).tables;
    if (t) blocks.push({ body: t.body, rows: t.rows });
  }
  const data = join(benchWorkDir(), 'view-cost-data');
  let variants = o.only;
  if (variants === undefined) {
    const store = await openStore({ data });
    try {
      await migrate(store);
      variants = ['all', 'none', ...await viewsOnTjEvents(store)];
    } finally {
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  }
  const costs: Cost[] = [];
  for (let r = 0; r < (o.repeats ?? 2); r++) {
    for (const v of variants) {
      const c = await oneVariant(blocks, data, v, v === 'all');
      costs.push(c);
      process.stderr.write(`${JSON.stringify({ round: r, ...c })}\n`);
    }
  }
  return costs;
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, seed: { type: 'string' }, repeats: { type: 'string' }, only: { type: 'string' } } });
  const costs = await run({
    sizeMb: values['size-mb'] ? Number(values['size-mb']) : undefined, seed: values.seed ? Number(values.seed) : undefined,
    repeats: values.repeats ? Number(values.repeats) : undefined, only: values.only?.split(','),
  });
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? Number.NaN;
  const byVariant = new Map<string, Cost[]>();
  for (const c of costs) byVariant.set(c.variant, [...(byVariant.get(c.variant) ?? []), c]);
  const all = median((byVariant.get('all') ?? []).map((c) => c.insertCpuS));
  process.stdout.write('| variant | insert CPU s (median) | wall s | all − variant CPU s | settle CPU s | settle wall s |\n|---|---|---|---|---|---|\n');
  for (const [v, cs] of byVariant) {
    const cpu = median(cs.map((c) => c.insertCpuS));
    process.stdout.write(`| ${v === 'all' || v === 'none' ? v : `without ${v}`} | ${cpu.toFixed(2)} | ${median(cs.map((c) => c.insertWallS)).toFixed(2)} | ${(all - cpu).toFixed(2)} | ${v === 'all' ? median(cs.map((c) => c.settleCpuS)).toFixed(2) : ''} | ${v === 'all' ? median(cs.map((c) => c.settleWallS)).toFixed(2) : ''} |\n`);
  }
}
