// The embedded engine's own insert rate for tj_events rows, with no perfpipe code in the timed loop: the TJ input is
// parsed, mapped and encoded first (exactly as a source does: the tj row builder's RowBinary, the sink's insert
// settings and dedup tokens), then only the inserts are timed, one after another, as `ingest` sends them.
// It is the ceiling every TJ → ClickHouse figure of this machine lives under (issue #2's 100k events/s, issue
// #9's 50k events/s end to end): measured at the rows per insert a default 2 MiB segment gives, and at ten times that.
// Usage: npx tsx bench/tj-engine-ceiling.ts [--size-mb 200]   (or node dist/bench/tj-engine-ceiling.js after tsc)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { feedTjFile } from './tj-feed.js';
import { openStore } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { rowsOfRecords } from '../ingest/families/registry.js';
import { TJ_EVENTS } from '../schemas/tj-row.js';
import { segmentInsertSettings } from '../ingest/sink/clickhouse-sink.js';
import { PipelineConfigSchema } from '../ingest/config/config.js';
import type { TjEvent } from '../schemas/tj-event.js';
import { generateTj, type GeneratedTj } from './generate-tj.js';
import { benchWorkDir, isMain } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';

function parseAll(input: GeneratedTj): TjEvent[] {
  const events: TjEvent[] = [];
  for (const file of input.files) feedTjFile(input, file, (out) => events.push(...out.events));
  return events;
}

interface Body { body: Buffer; rows: number }

function bodies(events: TjEvent[], rowsPerInsert: number): Body[] {
  const out: Body[] = [];
  for (let i = 0; i < events.length; i += rowsPerInsert) {
    const [t] = rowsOfRecords('tj', events.slice(i, i + rowsPerInsert)).tables;
    if (t) out.push({ body: t.body, rows: t.rows });
  }
  return out;
}

async function insertAll(blocks: Body[], data: string): Promise<{ wallS: number; cpuS: number; stored: number }> {
  rmSync(data, { recursive: true, force: true });
  const store = await openStore({ data });
  try {
    await migrate(store);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const [n, b] of blocks.entries()) {
      await store.insertFormatted({ table: 'tj_events', columns: TJ_EVENTS.names, structure: TJ_EVENTS.structure, format: 'RowBinary', body: b.body, settings: segmentInsertSettings(`ceiling-${n}`) });
    }
    const wallS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const rs = await store.client.query({ query: 'SELECT count() AS n FROM tj_events', format: 'JSONEachRow' });
    const stored = Number((await rs.json<{ n: string }>())[0]?.n ?? -1);
    return { wallS, cpuS: (cpu.user + cpu.system) / 1e6, stored };
  } finally {
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}

export async function run(options: { sizeMb?: number } = {}): Promise<BenchResult> {
  const input = generateTj({ sizeMb: options.sizeMb ?? 200 });
  const events = parseAll(input);
  const segmentBytes = PipelineConfigSchema.parse({}).segment_bytes;
  const perSegment = Math.max(1, Math.round(segmentBytes / (input.bytes / events.length)));
  const figures: BenchResult['figures'] = [];
  const notes: string[] = [];
  let ok = true;
  for (const [label, rowsPerInsert] of [['default segment', perSegment], ['10× segment', perSegment * 10]] as const) {
    const blocks = bodies(events, rowsPerInsert);
    const encodedBytes = blocks.reduce((sum, b) => sum + b.body.length, 0);
    const r = await insertAll(blocks, join(benchWorkDir(), 'engine-ceiling-data'));
    ok &&= r.stored === events.length;
    figures.push(
      { name: `engine insert, ${rowsPerInsert} rows per insert (${label})`, value: events.length / r.wallS, unit: 'events/s' },
      { name: `engine CPU per event, ${rowsPerInsert} rows per insert`, value: (r.cpuS / events.length) * 1e6, unit: 'µs' },
    );
    notes.push(`${label}: ${blocks.length} inserts of ${rowsPerInsert} rows, ${(encodedBytes / events.length).toFixed(0)} bytes of RowBinary per row, ${r.wallS.toFixed(1)} s wall, ${r.cpuS.toFixed(1)} CPU s (all engine threads), ${r.stored} rows stored`);
  }
  return { bench: 'tj-engine-ceiling', input: { bytes: input.bytes, events: events.length, files: input.files.length }, figures, ok, notes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' } } });
  const r = await run({ sizeMb: Number(values['size-mb'] ?? 200) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
}
