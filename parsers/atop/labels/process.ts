// Field names of the per-task labels PRG (general), PRC (cpu), PRM (memory), PRD (disk), PRN (network,
// needs netatop) and PRE (GPU). Every process line (is_process y) is followed by its thread lines (n),
// the main thread included, so never sum y and n lines (docs/atop-format.md §4).
import { fieldTable } from './layout.js';

const TASK = ['pid', 'name:p', 'state:s'];

export const PRG_TABLE = fieldTable('PRG', [
  ['2.4', [...TASK, 'ruid', 'rgid', 'tgid', 'nthreads', 'exit_code', 'start_epoch', 'cmdline:p', 'ppid',
    'threads_running', 'threads_sleeping', 'threads_uninterruptible', 'euid', 'egid', 'suid', 'sgid',
    'fsuid', 'fsgid', 'elapsed_ticks', 'is_process:s', 'openvz_vpid', 'openvz_ctid', 'container:s']],
  ['2.6', ['new_in_interval:s']],
  ['2.8', ['cgroup:p']],
  ['2.9', ['end_epoch']],
  ['2.10', ['threads_idle']],
]);

export const PRC_TABLE = fieldTable('PRC', [
  ['2.4', [...TASK, 'hertz', 'utime_ticks', 'stime_ticks', 'nice', 'prio', 'rt_prio', 'policy', 'cpu',
    'sleepavg', 'tgid', 'is_process:s']],
  ['2.6', ['run_delay_ns', 'wchan:p']],
  // -3 no cgroup v2, -2 undefined, -1 max; the restrictive value is always -2 since 2.11.
  ['2.8', ['blkio_delay_ticks', 'cgroup_cpu_max_pct', 'cgroup_cpu_max_restrictive_pct']],
  ['2.9', ['voluntary_csw', 'involuntary_csw']],
]);

export const PRM_TABLE = fieldTable('PRM', [
  ['2.4', [...TASK, 'pagesize', 'vmem_kib', 'rss_kib', 'shared_text_kib', 'vmem_growth_kib', 'rss_growth_kib',
    'minor_faults', 'major_faults', 'lib_exec_kib', 'data_kib', 'stack_kib', 'swap_kib', 'tgid', 'is_process:s',
    'pss_kib']],
  ['2.6', ['locked_kib']],
  ['2.8', ['cgroup_mem_max', 'cgroup_mem_max_restrictive', 'cgroup_swap_max', 'cgroup_swap_max_restrictive']],
]);

export const PRD_TABLE = fieldTable('PRD', [
  // reads/writes are copies of the sector counts (photoproc.c: "to enable sort"), not I/O counts.
  ['2.4', [...TASK, 'obsolete_patch:s', 'io_stats:s', 'reads', 'read_sectors', 'writes', 'write_sectors',
    'cancelled_write_sectors', 'tgid', 'obsolete_flag:s', 'is_process:s']],
]);

export const PRN_TABLE = fieldTable('PRN', [
  ['2.4', [...TASK, 'netatop:s', 'tcp_sends', 'tcp_send_bytes', 'tcp_recvs', 'tcp_recv_bytes', 'udp_sends',
    'udp_send_bytes', 'udp_recvs', 'udp_recv_bytes', 'unused1', 'unused2', 'tgid', 'is_process:s']],
]);

export const PRE_TABLE = fieldTable('PRE', [
  ['2.4', [...TASK, 'gpu_state:s', 'nr_gpus', 'gpu_list:s', 'gpu_busy_pct', 'mem_busy_pct', 'mem_kib',
    'mem_cum_kib', 'samples']],
  ['2.13', ['is_process:s', 'gpu_type:s']],
]);

/** PRE values printed for a task without GPU activity; before 2.11 they are uninitialised memory. */
export const PRE_GPU_VALUES = ['nr_gpus', 'gpu_list', 'gpu_busy_pct', 'mem_busy_pct', 'mem_kib', 'mem_cum_kib', 'samples'];

/** GPU states under which PRE values are real (A active, E exited); any other byte means "no GPU data". */
export const PRE_REAL_STATES = new Set(['A', 'E']);
