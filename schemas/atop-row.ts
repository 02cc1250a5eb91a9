// The atop tables' rows (queries/ddl/030_atop.sql) and the mapping from one sample's derived metrics
// (parsers/atop/derive.ts). schemas/ddl-agreement.test.ts holds these schemas and the DDL in step.
// A since-boot sample never becomes rows: its deltas count from boot (docs/atop-format.md §2).
import type { z } from 'zod';
import { col, tableLayout, type ColumnType } from './columns.js';
import type { AtopRecord } from './atop-record.js';
import type { SampleMetrics } from './atop-metrics.js';
import { clickhouseTime } from './clickhouse-time.js';

const f64 = col.float64;
const opt = (): ColumnType<number | null> => col.nullable(col.float64());
const optU64 = (): ColumnType<number | null> => col.nullable(col.safeUint64());
const optI64 = (): ColumnType<number | null> => col.nullable(col.int64());
/** Where the sample starts in its file: with the segment's dedup token this is the row's identity. */
const where = () => ({ ts: col.dateTime64(3), host: col.lowCardinality(), file_key: col.string(), file_offset: col.safeUint64() });

export const ATOP_SYSTEM = tableLayout('atop_system', {
  ...where(),
  interval_s: col.uint32(),
  elapsed_s: f64(),
  nrcpu: col.uint16(),
  /** Machine CPU (CPU line): busy is 0–100; the categories are per CPU-equivalent, as atopsar's `all`. */
  cpu_busy_pct: opt(), cpu_user_pct: opt(), cpu_system_pct: opt(), cpu_iowait_pct: opt(), cpu_steal_pct: opt(),
  load1: opt(), load5: opt(), load15: opt(),
  run_queue: col.nullable(col.uint32()), context_switches_per_s: opt(), interrupts_per_s: opt(),
  mem_total_bytes: optU64(), mem_used_bytes: optI64(), mem_used_pct: opt(), mem_free_bytes: optU64(), mem_cache_bytes: optU64(),
  mem_buffers_bytes: optU64(), mem_dirty_bytes: optU64(), mem_available_bytes: optU64(),
  swap_total_bytes: optU64(), swap_used_bytes: optI64(), swap_used_pct: opt(),
});
export const AtopSystemRowSchema = ATOP_SYSTEM.schema;
export type AtopSystemRow = z.infer<typeof AtopSystemRowSchema>;

export const ATOP_CPU = tableLayout('atop_cpu', {
  ...where(),
  /** Core number; -1 for the whole machine (the CPU line). */
  cpu: col.int16(),
  busy_pct: f64(), user_pct: f64(), nice_pct: f64(), system_pct: f64(), irq_pct: f64(), softirq_pct: f64(),
  iowait_pct: f64(), idle_pct: f64(), steal_pct: f64(), guest_pct: f64(),
});
export const AtopCpuRowSchema = ATOP_CPU.schema;
export type AtopCpuRow = z.infer<typeof AtopCpuRowSchema>;

export const ATOP_DISKS = tableLayout('atop_disks', {
  ...where(),
  label: col.lowCardinality(), name: col.lowCardinality(),
  busy_pct: f64(), reads_per_s: f64(), writes_per_s: f64(), read_kib_per_s: f64(), write_kib_per_s: f64(),
  avg_service_ms: opt(), avg_queue: opt(), inflight: opt(),
});
export const AtopDiskRowSchema = ATOP_DISKS.schema;
export type AtopDiskRow = z.infer<typeof AtopDiskRowSchema>;

export const ATOP_INTERFACES = tableLayout('atop_interfaces', {
  ...where(),
  name: col.lowCardinality(),
  rx_packets_per_s: f64(), tx_packets_per_s: f64(), rx_kib_per_s: f64(), tx_kib_per_s: f64(),
  speed_mbps: opt(), busy_pct: opt(),
});
export const AtopInterfaceRowSchema = ATOP_INTERFACES.schema;
export type AtopInterfaceRow = z.infer<typeof AtopInterfaceRowSchema>;

export const ATOP_TOP_PROCESSES = tableLayout('atop_top_processes', {
  ...where(),
  /** Which list the row is from: `cpu` (PRC), `memory` (PRM, by RSS) or `disk` (PRD). */
  measure: col.lowCardinality(),
  /** 1 = the top process of that list in that sample. */
  rank: col.uint8(),
  pid: col.uint32(),
  name: col.lowCardinality(),
  /** Values of the other lists are null: a row carries only its own measure's figures. */
  cpu_pct: opt(), rss_kib: opt(), vmem_kib: opt(), rss_growth_kib: opt(), read_kib_per_s: opt(), write_kib_per_s: opt(),
});
export const AtopTopProcessRowSchema = ATOP_TOP_PROCESSES.schema;
export type AtopTopProcessRow = z.infer<typeof AtopTopProcessRowSchema>;

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
