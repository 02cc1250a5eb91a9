// Derived values atop and atopsar show, computed from one sample's records (what createAtopParser emits
// between two SEP lines). Since-boot samples give no rates: their deltas count from boot (docs/atop-format.md §2).
import type { AtopRecord } from '../../schemas/atop-record.js';
import type { SampleMetrics } from '../../schemas/atop-metrics.js';
import { cpuUsage, diskUsage, elapsedSeconds, interfaceUsage, loadMetrics, memoryUsage } from './derive-system.js';
import { topProcesses } from './derive-process.js';

export { cpuUsage, diskUsage, elapsedSeconds, interfaceUsage, intervalSeconds, loadMetrics, memoryUsage } from './derive-system.js';
export { topProcesses } from './derive-process.js';

/**
 * Groups records into samples: a new sample starts when the sample number, host or epoch changes (the
 * epoch check splits fragments that lack SEP lines, as some public files do).
 */
export function groupSamples(records: readonly AtopRecord[]): AtopRecord[][] {
  const samples: AtopRecord[][] = [];
  let current: AtopRecord[] = [];
  for (const r of records) {
    const first = current[0];
    if (first !== undefined && (first.sample !== r.sample || first.host !== r.host || first.epoch !== r.epoch)) {
      samples.push(current);
      current = [];
    }
    current.push(r);
  }
  if (current.length > 0) samples.push(current);
  return samples;
}

/** Everything derive computes for one sample; null for an empty sample. */
export function deriveSample(records: readonly AtopRecord[], topN = 10): SampleMetrics | null {
  const first = records[0];
  if (first === undefined) return null;
  return {
    host: first.host, epoch: first.epoch, ts: first.ts, sample: first.sample, since_boot: first.since_boot,
    elapsed_s: elapsedSeconds(records),
    cpu: cpuUsage(records), load: loadMetrics(records), memory: memoryUsage(records),
    disks: diskUsage(records), interfaces: interfaceUsage(records), top: topProcesses(records, topN),
  };
}
