// An `atop` segment's rows: each sample's records derived once (parsers/atop/derive.ts) into atop_system, atop_cpu,
// atop_disks, atop_interfaces and atop_top_processes. The source cuts segments at sample ends only
// (atop-samples.ts), so every sample is whole here and the rows are a function of the segment alone. A since-boot
// sample never becomes rows: its deltas count from boot (docs/atop-format.md §2).
import type { AtopRecord } from '../../../schemas/atop-record.js';
import type { SampleMetrics } from '../../../schemas/atop-metrics.js';
import {
  ATOP_CPU, ATOP_DISKS, ATOP_INTERFACES, ATOP_SYSTEM, ATOP_TOP_PROCESSES, type AtopCpuRow, type AtopDiskRow,
  type AtopInterfaceRow, type AtopSystemRow, type AtopTopProcessRow,
} from '../../../schemas/atop-row.js';
import { clickhouseTime } from '../../../schemas/clickhouse-time.js';
import { deriveSample, groupSamples } from '../../../parsers/atop/derive.js';
import type { RowBuilder } from '../../rows/row-builder.js';
import { TableWriter, takeAll } from '../../rows/table-writer.js';

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

export interface AtopSampleRows {
  system: AtopSystemRow;
  cpu: AtopCpuRow[];
  disks: AtopDiskRow[];
  interfaces: AtopInterfaceRow[];
  top: AtopTopProcessRow[];
}

const chTime = (iso: string): string => clickhouseTime(iso);

/** The rows of one sample; null for a since-boot baseline, which holds no rates. */
export function atopSampleToRows(m: SampleMetrics, first: AtopRecord): AtopSampleRows | null {
  if (m.since_boot) return null;
  const base = { ts: chTime(m.ts), host: m.host, file_key: first.origin.file_key, file_offset: first.origin.offset };
  const c = m.cpu?.total ?? null;
  const mem = m.memory;
  const nul = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
  const system: AtopSystemRow = {
    ...base, interval_s: first.interval, elapsed_s: m.elapsed_s, nrcpu: m.cpu?.nrcpu ?? m.load?.nrcpu ?? 0,
    cpu_busy_pct: nul(c?.busy_pct), cpu_user_pct: c === null ? null : c.user_pct + c.nice_pct,
    cpu_system_pct: nul(c?.system_pct), cpu_iowait_pct: nul(c?.iowait_pct), cpu_steal_pct: nul(c?.steal_pct),
    load1: nul(m.load?.load1), load5: nul(m.load?.load5), load15: nul(m.load?.load15),
    run_queue: m.load?.run_queue ?? null, context_switches_per_s: nul(m.load?.context_switches_per_s),
    interrupts_per_s: nul(m.load?.interrupts_per_s),
    mem_total_bytes: nul(mem?.total_bytes), mem_used_bytes: nul(mem?.used_bytes), mem_used_pct: nul(mem?.used_pct),
    mem_free_bytes: nul(mem?.free_bytes), mem_cache_bytes: nul(mem?.cache_bytes), mem_buffers_bytes: nul(mem?.buffers_bytes),
    mem_dirty_bytes: nul(mem?.dirty_bytes), mem_available_bytes: mem?.available_bytes ?? null,
    swap_total_bytes: nul(mem?.swap_total_bytes), swap_used_bytes: nul(mem?.swap_used_bytes), swap_used_pct: mem?.swap_used_pct ?? null,
  };
  const cpu: AtopCpuRow[] = m.cpu === null ? [] : [m.cpu.total, ...m.cpu.per_cpu].map(({ cpu: n, ...u }) => ({ ...base, cpu: n ?? -1, ...u }));
  const disks: AtopDiskRow[] = m.disks.map((d) => ({
    ...base, label: d.label, name: d.name, busy_pct: d.busy_pct, reads_per_s: d.reads_per_s, writes_per_s: d.writes_per_s,
    read_kib_per_s: d.read_kib_per_s, write_kib_per_s: d.write_kib_per_s, avg_service_ms: d.avg_service_ms,
    avg_queue: d.avg_queue, inflight: d.inflight,
  }));
  const interfaces: AtopInterfaceRow[] = m.interfaces.map((i) => ({ ...base, ...i }));
  const none = { cpu_pct: null, rss_kib: null, vmem_kib: null, rss_growth_kib: null, read_kib_per_s: null, write_kib_per_s: null };
  const top: AtopTopProcessRow[] = [
    ...m.top.by_cpu.map((p, i) => ({ ...base, ...none, measure: 'cpu' as const, rank: i + 1, pid: p.pid, name: p.name, cpu_pct: p.cpu_pct })),
    ...m.top.by_memory.map((p, i) => ({
      ...base, ...none, measure: 'memory' as const, rank: i + 1, pid: p.pid, name: p.name,
      rss_kib: p.rss_kib, vmem_kib: p.vmem_kib, rss_growth_kib: p.rss_growth_kib,
    })),
    ...m.top.by_disk.map((p, i) => ({
      ...base, ...none, measure: 'disk' as const, rank: i + 1, pid: p.pid, name: p.name,
      read_kib_per_s: p.read_kib_per_s, write_kib_per_s: p.write_kib_per_s,
    })),
  ];
  return { system, cpu, disks, interfaces, top };
}
