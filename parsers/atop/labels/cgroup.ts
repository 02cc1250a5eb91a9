// Field names of CGR (cgroup v2, atop 2.11+): a `C` line with the cgroup's counters and an optional `P`
// line listing its PIDs. The path is printed without parentheses, so it is whatever the fixed-count
// counters leave over (C) or what precedes the trailing PID run (P).
import { fieldTable, type FieldTable } from './layout.js';

const pressure = ['cpu_some_us', 'cpu_full_us', 'mem_some_us', 'mem_full_us', 'io_some_us', 'io_full_us'];

export const CGR_CGROUP_TABLE = fieldTable('CGR C', [
  // cpu_max_pct and *_max: -1 max, -2 undefined; memory in pages.
  ['2.11', ['kind:s', 'path:s', 'nprocs', 'nprocs_below', 'utime_us', 'stime_us', 'cpu_weight', 'cpu_max_pct',
    'mem_current_pages', 'mem_anon_pages', 'mem_file_pages', 'mem_kernel_pages', 'mem_shmem_pages',
    'mem_max_pages', 'swap_max_pages', 'io_read_bytes', 'io_write_bytes', 'io_reads', 'io_writes', 'io_weight',
    ...pressure]],
], 1);

// PIDs outside the reading atop's pid namespace show as 0.
export const CGR_PIDS_TABLE = fieldTable('CGR P', [['2.11', ['kind:s', 'path:s', 'pids:l']]]);

export function cgrTable(tokens: readonly string[]): FieldTable {
  return tokens[0] === 'P' ? CGR_PIDS_TABLE : CGR_CGROUP_TABLE;
}

/** Tokens of a P line as [P, path, "pid pid …"]: the path ends where the run of integers to the right begins. */
export function tokenizeCgroup(rest: string): string[] {
  const tokens = rest.split(' ');
  if (tokens[0] !== 'P') return tokens;
  let firstPid = tokens.length;
  while (firstPid > 2 && /^\d+$/.test(tokens[firstPid - 1] ?? '')) firstPid -= 1;
  return ['P', tokens.slice(1, firstPid).join(' '), tokens.slice(firstPid).join(' ')];
}
