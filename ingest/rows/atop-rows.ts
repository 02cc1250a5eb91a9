// An `atop` segment's rows: each sample's records derived once (parsers/atop/derive.ts) into atop_system, atop_cpu,
// atop_disks, atop_interfaces and atop_top_processes. The source cuts segments at sample ends only
// (ingest/source/atop/atop-samples.ts), so every sample is whole here and the rows are a function of the segment alone.
import type { AtopRecord } from '../../schemas/atop-record.js';
import {
  ATOP_CPU, ATOP_DISKS, ATOP_INTERFACES, ATOP_SYSTEM, ATOP_TOP_PROCESSES, type AtopSampleRows, atopSampleToRows,
} from '../../schemas/atop-row.js';
import { deriveSample, groupSamples } from '../../parsers/atop/derive.js';
import type { RowBuilder } from './row-builder.js';
import { TableWriter, takeAll } from './table-writer.js';

/** Processes kept per sample in each top list (CPU, memory, disk). */
export const ATOP_TOP_N = 10;

/** The rows of whole samples' records, per sample (since-boot baselines give none). */
export function atopRows(records: readonly AtopRecord[]): AtopSampleRows[] {
  const out: AtopSampleRows[] = [];
  for (const records1 of groupSamples(records as AtopRecord[])) {
    const metrics = deriveSample(records1, ATOP_TOP_N);
    const first = records1[0];
    if (metrics === null || first === undefined) continue;
    const rows = atopSampleToRows(metrics, first);
    if (rows !== null) out.push(rows);
  }
  return out;
}

/** Records are held to the cut, where every sample is whole (the source cuts at sample ends). */
export function createAtopRowBuilder(): RowBuilder {
  let held: AtopRecord[] = [];
  const system = new TableWriter(ATOP_SYSTEM, 4096);
  const cpu = new TableWriter(ATOP_CPU, 4096);
  const disks = new TableWriter(ATOP_DISKS, 4096);
  const interfaces = new TableWriter(ATOP_INTERFACES, 4096);
  const top = new TableWriter(ATOP_TOP_PROCESSES, 4096);
  return {
    add(list) {
      for (const r of list) held.push(r as AtopRecord);
    },
    take() {
      const records = held.length;
      for (const rows of atopRows(held)) {
        system.write(rows.system);
        for (const r of rows.cpu) cpu.write(r);
        for (const r of rows.disks) disks.write(r);
        for (const r of rows.interfaces) interfaces.write(r);
        for (const r of rows.top) top.write(r);
      }
      held = [];
      return { records, tables: takeAll([system, cpu, disks, interfaces, top]) };
    },
  };
}
