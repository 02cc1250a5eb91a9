// Field names of the storage labels: LVM, MDD, DSK (per volume/disk, sectors of 512 B), NFM (per NFS
// mount), NFC (NFS client) and NFS (NFS server). All counters are Δ over the interval except inflight.
import { fieldTable } from './layout.js';

const blockDevice = (label: string) => fieldTable(label, [
  ['2.4', ['name:s', 'io_ms', 'reads', 'read_sectors', 'writes', 'write_sectors']],
  // discards is -1 when the kernel does not count them.
  ['2.7', ['discards', 'discard_sectors']],
  // avg_queue = weighted ms / io_ms: the queue depth while busy.
  ['2.8', ['inflight', 'avg_queue']],
]);

export const LVM_TABLE = blockDevice('LVM');
export const MDD_TABLE = blockDevice('MDD');
export const DSK_TABLE = blockDevice('DSK');

// A mount device (`server:/export path`) may hold spaces: surplus tokens belong to it.
export const NFM_TABLE = fieldTable('NFM', [
  ['2.4', ['mount:s', 'bytes_read', 'bytes_written', 'bytes_read_syscall', 'bytes_written_syscall',
    'bytes_read_direct', 'bytes_written_direct', 'pages_read_ahead', 'pages_written_back']],
], 0);

export const NFC_TABLE = fieldTable('NFC', [
  ['2.4', ['rpcs', 'rpc_reads', 'rpc_writes', 'retransmissions', 'auth_refreshes']],
]);

export const NFS_TABLE = fieldTable('NFS', [
  ['2.4', ['rpcs', 'rpc_reads', 'rpc_writes', 'bytes_read', 'bytes_written', 'bad_format', 'bad_auth',
    'bad_client', 'net_requests', 'net_tcp', 'net_udp', 'tcp_connections', 'cache_hits', 'cache_misses', 'uncached']],
]);
