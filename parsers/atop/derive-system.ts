// System-level values atop and atopsar derive from one sample's records: CPU %, load, memory, disk and
// interface rates (docs/atop-format.md §7, after showlinux.c / atopsar.c). Pure functions of the records.
import type { AtopRecord } from '../../schemas/atop-record.js';
import type { CpuMetrics, CpuUsage, DiskMetrics, InterfaceMetrics, LoadMetrics, MemoryMetrics } from '../../schemas/atop-metrics.js';

/** A numeric field, 0 when absent (an older layout) or not a number. */
export const num = (r: AtopRecord, name: string): number => {
  const v = r.fields[name];
  return typeof v === 'number' ? v : 0;
};
const has = (r: AtopRecord, name: string): boolean => typeof r.fields[name] === 'number';
const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** Ticks of a CPU/cpu line that make up its elapsed time; guest is inside user, so it is left out. */
const totalTicks = (r: AtopRecord): number =>
  ['system', 'user', 'nice', 'idle', 'iowait', 'irq', 'softirq', 'steal'].reduce((t, f) => t + num(r, f), 0);

/**
 * Seconds the sample covers, as atopsar measures it: the CPU tick total per CPU divided by hertz. It is
 * exact where the printed integer interval is not (599/601 for 600); atopsar divides CPU and disk figures by it.
 */
export function elapsedSeconds(records: readonly AtopRecord[]): number {
  const cpu = records.find((r) => r.label === 'CPU');
  if (cpu !== undefined && num(cpu, 'hertz') > 0 && num(cpu, 'nrcpu') > 0 && totalTicks(cpu) > 0) {
    return totalTicks(cpu) / num(cpu, 'hertz') / num(cpu, 'nrcpu');
  }
  return Math.max(records[0]?.interval ?? 1, 1);
}

/**
 * The printed interval in seconds. atopsar divides counters of CPL (context switches, interrupts) and NET
 * by it rather than by the tick-derived time (its pswch/s and ipack/s match only this way on our corpus).
 */
export function intervalSeconds(records: readonly AtopRecord[]): number {
  return Math.max(records[0]?.interval ?? 1, 1);
}

function usage(r: AtopRecord, cpu: number | null, per: number): CpuUsage {
  const total = totalTicks(r);
  const p = (ticks: number): number => (per > 0 ? (ticks * 100) / per : 0);
  return {
    cpu,
    busy_pct: total > 0 ? ((total - num(r, 'idle') - num(r, 'iowait')) * 100) / total : 0,
    user_pct: p(num(r, 'user')), nice_pct: p(num(r, 'nice')), system_pct: p(num(r, 'system')),
    irq_pct: p(num(r, 'irq')), softirq_pct: p(num(r, 'softirq')), iowait_pct: p(num(r, 'iowait')),
    idle_pct: p(num(r, 'idle')), steal_pct: p(num(r, 'steal')), guest_pct: p(num(r, 'guest')),
  };
}

/** Machine and per-core CPU shares; the machine's categories are per CPU-equivalent, like atopsar's `all`. */
export function cpuUsage(records: readonly AtopRecord[]): CpuMetrics | null {
  const cpu = records.find((r) => r.label === 'CPU');
  if (cpu === undefined || cpu.since_boot) return null;
  const nrcpu = Math.max(num(cpu, 'nrcpu'), 1);
  return {
    nrcpu,
    total: usage(cpu, null, totalTicks(cpu) / nrcpu),
    per_cpu: records.filter((r) => r.label === 'cpu').map((r) => usage(r, num(r, 'cpu'), totalTicks(r))),
  };
}

export function loadMetrics(records: readonly AtopRecord[]): LoadMetrics | null {
  const cpl = records.find((r) => r.label === 'CPL');
  if (cpl === undefined || cpl.since_boot) return null;
  const secs = intervalSeconds(records);
  const processes = records.filter((r) => r.label === 'PRG' && r.fields.is_process === 'y');
  return {
    nrcpu: num(cpl, 'nrcpu'), load1: num(cpl, 'load1'), load5: num(cpl, 'load5'), load15: num(cpl, 'load15'),
    context_switches_per_s: num(cpl, 'context_switches') / secs,
    interrupts_per_s: num(cpl, 'device_interrupts') / secs,
    run_queue: processes.length === 0 ? null : processes.reduce((n, r) => n + num(r, 'threads_running'), 0),
  };
}

/** Memory and swap gauges: valid in a since-boot sample too, since they are snapshots, not deltas. */
export function memoryUsage(records: readonly AtopRecord[]): MemoryMetrics | null {
  const mem = records.find((r) => r.label === 'MEM');
  if (mem === undefined) return null;
  const swp = records.find((r) => r.label === 'SWP');
  // -P counts pages (`x_pages`, with pagesize); -J counts bytes (`x_bytes`, json-fields.ts).
  const bytes = (r: AtopRecord | undefined, base: string): number =>
    r === undefined ? 0 : has(r, `${base}_pages`) ? num(r, `${base}_pages`) * num(r, 'pagesize') : num(r, `${base}_bytes`);
  const total = bytes(mem, 'phys');
  const used = total - bytes(mem, 'free') - bytes(mem, 'cache') - bytes(mem, 'buffer') - bytes(mem, 'slab_reclaimable')
    + bytes(mem, 'shmem');
  const swapTotal = bytes(swp, 'total');
  const swapUsed = swapTotal - bytes(swp, 'free');
  return {
    total_bytes: total, free_bytes: bytes(mem, 'free'), cache_bytes: bytes(mem, 'cache'), buffers_bytes: bytes(mem, 'buffer'),
    slab_bytes: bytes(mem, 'slab'), dirty_bytes: bytes(mem, 'dirty'), shmem_bytes: bytes(mem, 'shmem'),
    used_bytes: used, used_pct: total > 0 ? (used * 100) / total : 0,
    available_bytes: has(mem, 'available_pages') || has(mem, 'available_bytes') ? bytes(mem, 'available') : null,
    swap_total_bytes: swapTotal, swap_free_bytes: bytes(swp, 'free'), swap_used_bytes: swapUsed,
    swap_used_pct: swapTotal > 0 ? (swapUsed * 100) / swapTotal : null,
    committed_bytes: bytes(swp, 'committed'), commit_limit_bytes: bytes(swp, 'commit_limit'),
  };
}

const BLOCK_LABELS = new Set(['DSK', 'LVM', 'MDD']);

/** Per disk / volume / md device; sectors are 512 bytes, io_ms is ms busy in the interval. */
export function diskUsage(records: readonly AtopRecord[]): DiskMetrics[] {
  const secs = elapsedSeconds(records);
  return records.filter((r) => BLOCK_LABELS.has(r.label) && !r.since_boot).map((r) => {
    const reads = num(r, 'reads');
    const writes = num(r, 'writes');
    const ios = reads + writes + Math.max(num(r, 'discards'), 0);
    return {
      label: r.label as DiskMetrics['label'],
      name: String(r.fields.name),
      busy_pct: (num(r, 'io_ms') * 100) / (secs * 1000),
      reads_per_s: reads / secs, writes_per_s: writes / secs,
      read_kib_per_s: num(r, 'read_sectors') / 2 / secs, write_kib_per_s: num(r, 'write_sectors') / 2 / secs,
      kib_per_read: ratio(num(r, 'read_sectors') / 2, reads), kib_per_write: ratio(num(r, 'write_sectors') / 2, writes),
      avg_service_ms: ratio(num(r, 'io_ms'), ios),
      avg_queue: has(r, 'avg_queue') ? num(r, 'avg_queue') : null,
      inflight: has(r, 'inflight') ? num(r, 'inflight') : null,
    };
  });
}

/** Per interface (the NET `upper` line holds protocol counters and is left out). */
export function interfaceUsage(records: readonly AtopRecord[]): InterfaceMetrics[] {
  const secs = intervalSeconds(records);
  return records.filter((r) => r.label === 'NET' && r.fields.name !== 'upper' && !r.since_boot).map((r) => {
    const speed = num(r, 'speed_mbps');
    const rxBits = num(r, 'rx_bytes') * 8;
    const txBits = num(r, 'tx_bytes') * 8;
    const bits = num(r, 'full_duplex') === 1 ? Math.max(rxBits, txBits) : rxBits + txBits;
    return {
      name: String(r.fields.name),
      rx_packets_per_s: num(r, 'rx_packets') / secs, tx_packets_per_s: num(r, 'tx_packets') / secs,
      rx_kib_per_s: num(r, 'rx_bytes') / 1024 / secs, tx_kib_per_s: num(r, 'tx_bytes') / 1024 / secs,
      speed_mbps: speed > 0 ? speed : null,
      busy_pct: speed > 0 ? (bits * 100) / (speed * 1e6 * secs) : null,
    };
  });
}
