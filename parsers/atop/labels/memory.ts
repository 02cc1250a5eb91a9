// Field names of the memory labels: MEM, SWP (pages, gauges), PAG (paging Δ), PSI (pressure), NUM (per
// NUMA node). Pages are `pagesize` bytes; the version tags follow the matrix in docs/atop-format.md §6.
import { fieldTable } from './layout.js';

export const MEM_TABLE = fieldTable('MEM', [
  ['2.4', [
    'pagesize', 'phys_pages', 'free_pages', 'cache_pages', 'buffer_pages', 'slab_pages', 'dirty_pages',
    'slab_reclaimable_pages', 'vmware_balloon_pages', 'shmem_pages', 'shmem_resident_pages', 'shmem_swapped_pages',
    'hugepage_size', 'hugepages_total', 'hugepages_free',
  ]],
  ['2.6', ['zfs_arc_pages']],
  ['2.7', ['ksm_sharing_pages', 'ksm_shared_pages']],
  ['2.8', ['tcp_sock_pages', 'udp_sock_pages', 'pagetable_pages']],
  // 2.10 also redefined hugepage_size as the smaller of the two huge page sizes.
  ['2.10', ['large_hugepage_size', 'large_hugepages_total', 'large_hugepages_free', 'available_pages', 'anon_thp_pages']],
]);

export const SWP_TABLE = fieldTable('SWP', [
  // 2.4/2.5 print a literal 0 for swap_cache_pages.
  ['2.4', ['pagesize', 'total_pages', 'free_pages', 'swap_cache_pages', 'committed_pages', 'commit_limit_pages']],
  ['2.7', ['swap_cache2_pages', 'zswap_stored_pages', 'zswap_pool_pages']],
]);

export const PAG_TABLE = fieldTable('PAG', [
  ['2.4', ['pagesize', 'page_scans', 'allocstalls', 'unused', 'swapins', 'swapouts']],
  // oomkills is -1 when the kernel lacks the counter.
  ['2.7', ['oomkills', 'compaction_stalls', 'pages_migrated', 'numa_pages_migrated']],
  ['2.8', ['pgpgin', 'pgpgout']],
  ['2.10', ['zswap_ins', 'zswap_outs']],
]);

const pressure = (what: string): string[] => [`${what}_avg10`, `${what}_avg60`, `${what}_avg300`, `${what}_total_us`];

export const PSI_TABLE = fieldTable('PSI', [
  ['2.4', ['present:s', ...pressure('cpu_some'), ...pressure('mem_some'), ...pressure('mem_full'),
    ...pressure('io_some'), ...pressure('io_full')]],
]);

export const NUM_TABLE = fieldTable('NUM', [
  ['2.7', [
    'node', 'pagesize', 'frag_pct', 'total_pages', 'free_pages', 'active_pages', 'inactive_pages', 'file_pages',
    'dirty_pages', 'slab_pages', 'slab_reclaimable_pages', 'shmem_pages', 'hugepages_total',
  ]],
  ['2.10', ['hugepages_free']],
]);
