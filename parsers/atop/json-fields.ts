// Renames atop -J keys to the field names of the -P tables (labels/), so both formats feed the same
// columns and derive.ts. Only keys with the same meaning and unit are renamed; where -J counts bytes
// and -P pages (MEM, SWP, NUM) the name says `_bytes`; keys without a -P twin keep their -J name.
// Units per docs/atop-format.md §8: PRC rundelay/blkdelay are ms in -J; DSK avque is raw weighted ms.

const TICKS: Record<string, string> = {
  stime: 'system', utime: 'user', ntime: 'nice', itime: 'idle', wtime: 'iowait', Itime: 'irq', Stime: 'softirq',
  freq: 'freq_mhz', freqperc: 'freq_pct', instr: 'instructions', cycle: 'cycles',
};
const BLOCK: Record<string, string> = {
  dskname: 'name', lvmname: 'name', mddname: 'name', nread: 'reads', nrsect: 'read_sectors', nwrite: 'writes',
  nwsect: 'write_sectors', ndiscrd: 'discards',
};
const NFS_COMMON: Record<string, string> = {
  rpccnt: 'rpcs', rpcread: 'rpc_reads', rpcwrite: 'rpc_writes', rpcretrans: 'retransmissions', rpcautrefresh: 'auth_refreshes',
};
const psi = (prefix: string, name: string): Record<string, string> => ({
  [`${prefix}10`]: `${name}_avg10`, [`${prefix}60`]: `${name}_avg60`, [`${prefix}300`]: `${name}_avg300`, [`${prefix}tot`]: `${name}_total_us`,
});
const TASK: Record<string, string> = { cmd: 'name', isproc: 'is_process' };

/** -J key → -P field name, per -J label (NET_GENERAL is the -P `NET upper` line). */
export const JSON_RENAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  CPU: TICKS,
  cpu: { ...TICKS, cpuid: 'cpu' },
  CPL: { lavg1: 'load1', lavg5: 'load5', lavg15: 'load15', csw: 'context_switches', devint: 'device_interrupts' },
  MEM: {
    physmem: 'phys_bytes', freemem: 'free_bytes', cachemem: 'cache_bytes', buffermem: 'buffer_bytes', slabmem: 'slab_bytes',
    cachedrt: 'dirty_bytes', slabreclaim: 'slab_reclaimable_bytes', vmwballoon: 'vmware_balloon_bytes', shmem: 'shmem_bytes',
    shmrss: 'shmem_resident_bytes', shmswp: 'shmem_swapped_bytes', hugepagesz: 'hugepage_size', tothugepage: 'hugepages_total',
    freehugepage: 'hugepages_free', lhugepagesz: 'large_hugepage_size', ltothugepage: 'large_hugepages_total',
    lfreehugepage: 'large_hugepages_free', availablemem: 'available_bytes',
  },
  SWP: { totswap: 'total_bytes', freeswap: 'free_bytes', swcac: 'swap_cache_bytes', committed: 'committed_bytes', commitlim: 'commit_limit_bytes' },
  PAG: {
    pgscans: 'page_scans', allocstall: 'allocstalls', swins: 'swapins', swouts: 'swapouts', compacts: 'compaction_stalls',
    migrates: 'pages_migrated', numamigs: 'numa_pages_migrated', pgins: 'pgpgin', pgouts: 'pgpgout',
  },
  PSI: { psi: 'present', ...psi('cs', 'cpu_some'), ...psi('ms', 'mem_some'), ...psi('mf', 'mem_full'), ...psi('ios', 'io_some'), ...psi('iof', 'io_full') },
  DSK: BLOCK, LVM: BLOCK, MDD: BLOCK,
  NFC: NFS_COMMON,
  NFS: {
    ...NFS_COMMON, nrbytes: 'bytes_read', nwbytes: 'bytes_written', rpcbadfmt: 'bad_format', rpcbadaut: 'bad_auth',
    rpcbadcln: 'bad_client', netcnt: 'net_requests', nettcpcnt: 'net_tcp', netudpcnt: 'net_udp', nettcpcon: 'tcp_connections',
    rchits: 'cache_hits', rcmiss: 'cache_misses', rcnocache: 'uncached',
  },
  NET_GENERAL: {
    rpacketsTCP: 'tcp_in', spacketsTCP: 'tcp_out', activeOpensTCP: 'tcp_active_opens', passiveOpensTCP: 'tcp_passive_opens',
    retransSegsTCP: 'tcp_retransmits', rpacketsUDP: 'udp_in', spacketsUDP: 'udp_out', rpacketsIP: 'ip_in', spacketsIP: 'ip_out',
    dpacketsIP: 'ip_delivered', fpacketsIP: 'ip_forwarded',
  },
  NET: {
    rpack: 'rx_packets', rbyte: 'rx_bytes', spack: 'tx_packets', sbyte: 'tx_bytes', speed: 'speed_mbps', duplex: 'full_duplex',
    rerrs: 'rx_errors', serrs: 'tx_errors', rdrop: 'rx_drops', sdrop: 'tx_drops', rfifo: 'rx_fifo', sfifo: 'tx_fifo',
    rcompr: 'rx_compressed', scompr: 'tx_compressed', rframe: 'rx_frame', rmultic: 'rx_multicast', scollis: 'tx_collisions',
    scarrier: 'tx_carrier',
  },
  NUM: {
    numanr: 'node', frag: 'frag_pct', totmem: 'total_bytes', freemem: 'free_bytes', active: 'active_bytes', inactive: 'inactive_bytes',
    filepage: 'file_bytes', dirtymem: 'dirty_bytes', slabmem: 'slab_bytes', slabreclaim: 'slab_reclaimable_bytes',
    shmem: 'shmem_bytes', tothp: 'hugepages_total', freehp: 'hugepages_free',
  },
  PRG: {
    ...TASK, nthr: 'nthreads', exitcode: 'exit_code', btime: 'start_epoch', nthrrun: 'threads_running', nthrslpi: 'threads_sleeping',
    nthrslpu: 'threads_uninterruptible', nthridle: 'threads_idle', elaps: 'elapsed_ticks', cid: 'container',
  },
  PRC: {
    ...TASK, utime: 'utime_ticks', stime: 'stime_ticks', curcpu: 'cpu', rundelay: 'run_delay_ms', blkdelay: 'blkio_delay_ms',
    nvcsw: 'voluntary_csw', nivcsw: 'involuntary_csw',
  },
  PRM: {
    ...TASK, vmem: 'vmem_kib', rmem: 'rss_kib', vexec: 'shared_text_kib', vgrow: 'vmem_growth_kib', rgrow: 'rss_growth_kib',
    minflt: 'minor_faults', majflt: 'major_faults', vlibs: 'lib_exec_kib', vdata: 'data_kib', vstack: 'stack_kib',
    vlock: 'locked_kib', vswap: 'swap_kib', pmem: 'pss_kib',
  },
  PRD: { ...TASK, rio: 'reads', rsz: 'read_sectors', wio: 'writes', wsz: 'write_sectors', cwsz: 'cancelled_write_sectors' },
};

/** -J keys printed as strings that hold numbers (docs/atop-format.md §8). */
export const NUMERIC_STRINGS = new Set(['btime', 'elaps', 'numanr', 'frag', 'speed']);
