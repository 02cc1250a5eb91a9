// Field names of the processor labels: CPU (total), cpu (per core), CPL (load), NUC (per NUMA node), LLC
// (last-level cache, Intel RDT). Ticks are clock ticks (divide by `hertz`), Δ over the interval (docs/atop-format.md §5).
import { fieldTable } from './layout.js';

/** Tick counters shared by CPU, cpu and NUC, in the order atop prints them; guest is already inside user. */
const TICKS = ['system', 'user', 'nice', 'idle', 'iowait', 'irq', 'softirq', 'steal', 'guest'];

export const CPU_TABLE = fieldTable('CPU', [
  ['2.4', ['hertz', 'nrcpu', ...TICKS, 'freq_mhz', 'freq_pct', 'instructions', 'cycles']],
]);

export const CPU_CORE_TABLE = fieldTable('cpu', [
  ['2.4', ['hertz', 'cpu', ...TICKS, 'freq_mhz', 'freq_pct', 'instructions', 'cycles']],
]);

export const CPL_TABLE = fieldTable('CPL', [
  ['2.4', ['nrcpu', 'load1', 'load5', 'load15', 'context_switches', 'device_interrupts']],
]);

export const NUC_TABLE = fieldTable('NUC', [['2.7', ['node', 'nrcpu', ...TICKS]]]);

export const LLC_TABLE = fieldTable('LLC', [
  ['2.8', ['name:s', 'occupancy_pct:%', 'mbm_total_bytes', 'mbm_local_bytes']],
]);
