// The atop tables' rows (queries/ddl/030_atop.sql); filling them from one sample's derived metrics
// (parsers/atop/derive.ts) is ingest/source/atop/atop-rows.ts. schemas/ddl-agreement.test.ts holds these schemas and
// the DDL in step.
import type { z } from 'zod';
import { col, tableLayout, type ColumnType } from './columns.js';

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
