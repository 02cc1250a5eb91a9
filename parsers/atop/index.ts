// Public entry of the atop parser: `-P` text (createAtopParser), `-J` NDJSON (createAtopJsonParser) and the
// derived metrics atop/atopsar show (derive.ts).
export { createAtopParser } from './atop-parser.js';
export { createAtopJsonParser } from './json.js';
export {
  cpuUsage, deriveSample, diskUsage, elapsedSeconds, groupSamples, interfaceUsage, intervalSeconds, loadMetrics,
  memoryUsage, topProcesses,
} from './derive.js';
