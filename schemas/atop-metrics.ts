// What parsers/atop/derive.ts computes from one atop sample: the percentages and rates atop and atopsar
// show (formulas in docs/atop-format.md §7). Rates exist only for samples that are not since-boot baselines.
import { z } from 'zod';

const pct = z.number();
const rate = z.number().nonnegative();

export const CpuUsageSchema = z.strictObject({
  /** Core number, or null for the whole machine (`CPU`). */
  cpu: z.number().int().nullable(),
  /** Share of the machine (or core) not idle and not waiting for I/O, 0–100. */
  busy_pct: pct,
  /**
   * Categories as atopsar prints them: for a core, % of that core; for the machine, % of one CPU, so they
   * sum to nrcpu × 100 (atopsar's `all` line shows `%usr 102` on 2 CPUs). guest is already inside user.
   */
  user_pct: pct, nice_pct: pct, system_pct: pct, irq_pct: pct, softirq_pct: pct,
  iowait_pct: pct, idle_pct: pct, steal_pct: pct, guest_pct: pct,
});
export type CpuUsage = z.infer<typeof CpuUsageSchema>;

export const CpuMetricsSchema = z.strictObject({
  nrcpu: z.number().int().positive(),
  total: CpuUsageSchema,
  per_cpu: z.array(CpuUsageSchema),
});
export type CpuMetrics = z.infer<typeof CpuMetricsSchema>;

export const LoadMetricsSchema = z.strictObject({
  nrcpu: z.number().int(),
  load1: z.number(), load5: z.number(), load15: z.number(),
  context_switches_per_s: rate,
  interrupts_per_s: rate,
  /** Σ running threads over processes (PRG, is_process y); null when the sample has no PRG lines. */
  run_queue: z.number().int().nonnegative().nullable(),
});
export type LoadMetrics = z.infer<typeof LoadMetricsSchema>;

export const MemoryMetricsSchema = z.strictObject({
  total_bytes: z.number(), free_bytes: z.number(), cache_bytes: z.number(), buffers_bytes: z.number(),
  slab_bytes: z.number(), dirty_bytes: z.number(), shmem_bytes: z.number(),
  /** atop's used: total − free − cache − buffers − reclaimable slab + shmem. */
  used_bytes: z.number(),
  used_pct: pct,
  /** MemAvailable (atop 2.10+); null for older versions. */
  available_bytes: z.number().nullable(),
  swap_total_bytes: z.number(), swap_free_bytes: z.number(), swap_used_bytes: z.number(),
  /** null on a host without swap. */
  swap_used_pct: pct.nullable(),
  committed_bytes: z.number(), commit_limit_bytes: z.number(),
});
export type MemoryMetrics = z.infer<typeof MemoryMetricsSchema>;

export const DiskMetricsSchema = z.strictObject({
  /** DSK whole disk, LVM logical volume, MDD md device. */
  label: z.enum(['DSK', 'LVM', 'MDD']),
  name: z.string(),
  busy_pct: pct,
  reads_per_s: rate, writes_per_s: rate,
  read_kib_per_s: rate, write_kib_per_s: rate,
  /** null when there was no read (write) in the interval. */
  kib_per_read: z.number().nullable(), kib_per_write: z.number().nullable(),
  /** Busy ms per I/O (reads + writes + discards), atopsar's avserv; null without I/O. */
  avg_service_ms: z.number().nullable(),
  /** Average queue depth while busy (atop 2.8+); null before. */
  avg_queue: z.number().nullable(),
  /** Requests in flight at sample time (atop 2.8+); null before. */
  inflight: z.number().nullable(),
});
export type DiskMetrics = z.infer<typeof DiskMetricsSchema>;

export const InterfaceMetricsSchema = z.strictObject({
  name: z.string(),
  rx_packets_per_s: rate, tx_packets_per_s: rate,
  rx_kib_per_s: rate, tx_kib_per_s: rate,
  /** null when atop reports speed 0 (virtual interface or unknown). */
  speed_mbps: z.number().nullable(),
  /** max(rx, tx) against the speed for full duplex, rx + tx for half; null without a speed. */
  busy_pct: pct.nullable(),
});
export type InterfaceMetrics = z.infer<typeof InterfaceMetricsSchema>;

export const ProcessCpuSchema = z.strictObject({
  pid: z.number().int(), name: z.string(),
  /** % of one CPU; exceeds 100 for a process busy on several cores. */
  cpu_pct: pct, user_pct: pct, system_pct: pct,
});
export const ProcessMemorySchema = z.strictObject({
  pid: z.number().int(), name: z.string(),
  rss_kib: z.number(), vmem_kib: z.number(), rss_growth_kib: z.number(),
});
export const ProcessDiskSchema = z.strictObject({
  pid: z.number().int(), name: z.string(),
  read_kib_per_s: rate, write_kib_per_s: rate,
});
export const TopProcessesSchema = z.strictObject({
  by_cpu: z.array(ProcessCpuSchema),
  by_memory: z.array(ProcessMemorySchema),
  by_disk: z.array(ProcessDiskSchema),
});
export type ProcessCpu = z.infer<typeof ProcessCpuSchema>;
export type ProcessMemory = z.infer<typeof ProcessMemorySchema>;
export type ProcessDisk = z.infer<typeof ProcessDiskSchema>;
export type TopProcesses = z.infer<typeof TopProcessesSchema>;

export const SampleMetricsSchema = z.strictObject({
  host: z.string(),
  epoch: z.number().int(),
  ts: z.string(),
  sample: z.number().int().nonnegative(),
  /** A since-boot baseline: cpu, load, disks, interfaces and the rate-based top lists are null/empty. */
  since_boot: z.boolean(),
  /**
   * Seconds CPU, disk and process rates are per: CPU ticks / hertz / nrcpu, as atopsar measures it (else the
   * printed interval). CPL and NET rates use the printed interval, as atopsar does.
   */
  elapsed_s: z.number().positive(),
  cpu: CpuMetricsSchema.nullable(),
  load: LoadMetricsSchema.nullable(),
  memory: MemoryMetricsSchema.nullable(),
  disks: z.array(DiskMetricsSchema),
  interfaces: z.array(InterfaceMetricsSchema),
  top: TopProcessesSchema,
});
export type SampleMetrics = z.infer<typeof SampleMetricsSchema>;
