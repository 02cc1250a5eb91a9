// An `atop` segment's rows: each sample's records derived once (parsers/atop/derive.ts) into atop_system, atop_cpu,
// atop_disks, atop_interfaces and atop_top_processes. The source cuts segments at sample ends only
// (ingest/source/atop-samples.ts), so every sample is whole here and the rows are a function of the segment alone.
import type { Segment } from '../bus/bus.js';
import type { AtopRecord } from '../../schemas/atop-record.js';
import { atopSampleToRows } from '../../schemas/atop-row.js';
import { deriveSample, groupSamples } from '../../parsers/atop/derive.js';

/** Processes kept per sample in each top list (CPU, memory, disk). */
export const ATOP_TOP_N = 10;

export function atopSegmentRows(segment: Segment, tables: Map<string, unknown[]>): void {
  const system: unknown[] = [];
  const cpu: unknown[] = [];
  const disks: unknown[] = [];
  const interfaces: unknown[] = [];
  const top: unknown[] = [];
  for (const records of groupSamples(segment.events as AtopRecord[])) {
    const metrics = deriveSample(records, ATOP_TOP_N);
    const first = records[0];
    if (metrics === null || first === undefined) continue;
    const rows = atopSampleToRows(metrics, first);
    if (rows === null) continue; // since-boot baseline: no rates to store
    system.push(rows.system);
    cpu.push(...rows.cpu);
    disks.push(...rows.disks);
    interfaces.push(...rows.interfaces);
    top.push(...rows.top);
  }
  tables.set('atop_system', system);
  tables.set('atop_cpu', cpu);
  tables.set('atop_disks', disks);
  tables.set('atop_interfaces', interfaces);
  tables.set('atop_top_processes', top);
}
