// Field names of the GPU label (one line per GPU, filled by the atopgpud daemon). Bus id and type are
// printed raw, not in parentheses, so a type with spaces is rejoined from the surplus tokens.
import { fieldTable } from './layout.js';

export const GPU_TABLE = fieldTable('GPU', [
  // *_cum fields are sums over `samples` readings: divide by samples for the interval's average.
  ['2.4', ['gpu', 'busid:s', 'type:s', 'gpu_busy_pct', 'mem_busy_pct', 'mem_total_kib', 'mem_used_kib',
    'samples', 'gpu_busy_cum', 'mem_busy_cum', 'mem_used_cum_kib']],
], 2);
