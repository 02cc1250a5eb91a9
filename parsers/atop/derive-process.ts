// Top processes of one sample by CPU (PRC), memory (PRM) and disk (PRD). Only process lines count
// (is_process y): thread lines repeat the process's own numbers (docs/atop-format.md §4).
import type { AtopRecord } from '../../schemas/atop-record.js';
import type { ProcessCpu, ProcessDisk, ProcessMemory, TopProcesses } from '../../schemas/atop-metrics.js';
import { elapsedSeconds, num } from './derive-system.js';

const processes = (records: readonly AtopRecord[], label: string): AtopRecord[] =>
  records.filter((r) => r.label === label && r.fields.is_process === 'y');

const top = <T>(rows: T[], key: (row: T) => number, n: number): T[] =>
  rows.sort((a, b) => key(b) - key(a)).slice(0, n);

/** The n busiest processes by each measure; rates are empty for a since-boot sample, RSS is a gauge. */
export function topProcesses(records: readonly AtopRecord[], n: number): TopProcesses {
  const secs = elapsedSeconds(records);
  const sinceBoot = records.some((r) => r.since_boot);
  const byCpu: ProcessCpu[] = sinceBoot ? [] : processes(records, 'PRC').map((r) => {
    const perTick = 100 / (Math.max(num(r, 'hertz'), 1) * secs);
    return {
      pid: num(r, 'pid'), name: String(r.fields.name),
      cpu_pct: (num(r, 'utime_ticks') + num(r, 'stime_ticks')) * perTick,
      user_pct: num(r, 'utime_ticks') * perTick, system_pct: num(r, 'stime_ticks') * perTick,
    };
  });
  const byMemory: ProcessMemory[] = processes(records, 'PRM').map((r) => ({
    pid: num(r, 'pid'), name: String(r.fields.name),
    rss_kib: num(r, 'rss_kib'), vmem_kib: num(r, 'vmem_kib'), rss_growth_kib: num(r, 'rss_growth_kib'),
  }));
  const byDisk: ProcessDisk[] = sinceBoot ? [] : processes(records, 'PRD').map((r) => ({
    pid: num(r, 'pid'), name: String(r.fields.name),
    read_kib_per_s: num(r, 'read_sectors') / 2 / secs, write_kib_per_s: num(r, 'write_sectors') / 2 / secs,
  }));
  return {
    by_cpu: top(byCpu, (p) => p.cpu_pct, n),
    by_memory: top(byMemory, (p) => p.rss_kib, n),
    by_disk: top(byDisk, (p) => p.read_kib_per_s + p.write_kib_per_s, n),
  };
}
