// Field names of the network labels: the first NET line per sample (`upper`: TCP/UDP/IP counters), one NET
// line per interface, and IFB (InfiniBand ports). Counters are Δ over the interval except tcp_curr_estab.
import { fieldTable, type FieldTable } from './layout.js';

export const NET_UPPER_TABLE = fieldTable('NET upper', [
  ['2.4', ['name:s', 'tcp_in', 'tcp_out', 'udp_in', 'udp_out', 'ip_in', 'ip_out', 'ip_delivered', 'ip_forwarded']],
  ['2.6', ['udp_in_errors', 'udp_noport', 'tcp_active_opens', 'tcp_passive_opens', 'tcp_curr_estab',
    'tcp_retransmits', 'tcp_in_errors', 'tcp_out_resets']],
  ['2.10', ['tcp_in_csum_errors']],
]);

export const NET_INTERFACE_TABLE = fieldTable('NET', [
  // speed 0 = unknown (virtual interfaces); full_duplex 1 = full.
  ['2.4', ['name:s', 'rx_packets', 'rx_bytes', 'tx_packets', 'tx_bytes', 'speed_mbps', 'full_duplex']],
  ['2.12', ['rx_errors', 'tx_errors', 'rx_drops', 'tx_drops', 'rx_fifo', 'tx_fifo', 'rx_compressed',
    'tx_compressed', 'rx_frame', 'rx_multicast', 'tx_collisions', 'tx_carrier']],
]);

/** NET prints two kinds of line: the literal `upper` in the first field marks the protocol counters. */
export function netTable(tokens: readonly string[]): FieldTable {
  return tokens[0] === 'upper' ? NET_UPPER_TABLE : NET_INTERFACE_TABLE;
}

export const IFB_TABLE = fieldTable('IFB', [
  ['2.4', ['name:s', 'port', 'lanes', 'max_rate_mbps', 'rx_bytes', 'tx_bytes', 'rx_packets', 'tx_packets']],
]);
