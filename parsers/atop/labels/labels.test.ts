// Labels our corpus host could not produce (no GPU, LVM, MD, NFS mount, InfiniBand, NUMA > 1, RDT): lines
// built from the token positions of docs/atop-format.md §5, read through the whole line reader.
import test from 'ava';
import { readLine } from '../line-record.js';

const H = (label: string) => `${label} db1 1796047800 2026/11/30 14:10:00 10`;

const cases: Array<[string, string, Record<string, unknown>, string]> = [
  ['GPU type with spaces', `${H('GPU')} 0 0000:01:00.0 NVIDIA A100-SXM4 40GB 35 12 41943040 2097152 10 350 120 20971520`,
    { gpu: 0, busid: '0000:01:00.0', type: 'NVIDIA A100-SXM4 40GB', gpu_busy_pct: 35, samples: 10, mem_used_cum_kib: 20971520 }, '2.4–2.13'],
  ['LVM 2.8', `${H('LVM')} vg0-pg 120 10 80 20 160 0 0 1 0.75`,
    { name: 'vg0-pg', io_ms: 120, writes: 20, inflight: 1, avg_queue: 0.75 }, '2.8–2.13'],
  ['MDD 2.7', `${H('MDD')} md0 50 1 8 2 16 -1 0`, { name: 'md0', discards: -1, discard_sectors: 0 }, '2.7'],
  ['NFM mount with a space', `${H('NFM')} nas:/export/1c base 1000 2000 900 1900 0 0 5 6`,
    { mount: 'nas:/export/1c base', bytes_read: 1000, pages_written_back: 6 }, '2.4–2.13'],
  ['IFB port', `${H('IFB')} mlx4_0 1 4 40000 100 200 3 4`, { name: 'mlx4_0', port: 1, max_rate_mbps: 40000, tx_packets: 4 }, '2.4–2.13'],
  ['NUC node', `${H('NUC')} 1 8 10 20 0 700 5 0 1 0 0`, { node: 1, nrcpu: 8, system: 10, idle: 700, guest: 0 }, '2.7–2.13'],
  ['LLC occupancy with a % sign', `${H('LLC')} LLC000 12.5% 1048576 524288`,
    { name: 'LLC000', occupancy_pct: 12.5, mbm_total_bytes: 1048576 }, '2.8–2.13'],
  ['NUM 2.10 with a float fragmentation', `${H('NUM')} 1 4096 3 1000 500 200 100 50 1 20 10 5 0 0`,
    { node: 1, frag_pct: 3, hugepages_free: 0 }, '2.10–2.13'],
  ['NET interface 2.12 with errors and drops', `${H('NET')} eth0 10 1000 20 2000 10000 1 1 2 3 4 0 0 0 0 0 5 0 0`,
    { name: 'eth0', speed_mbps: 10000, rx_errors: 1, tx_drops: 4, rx_multicast: 5 }, '2.12–2.13'],
  ['CGR P line with no PIDs in our namespace', `${H('CGR')} P /system.slice/postgresql.service 0 0`,
    { kind: 'P', path: '/system.slice/postgresql.service', pids: [0, 0] }, '2.11–2.13'],
  ['PRE 2.13 with an active GPU', `${H('PRE')} 77 (python3) S A 1 1 35 10 2048 4096 10 y C`,
    { pid: 77, gpu_state: 'A', nr_gpus: 1, gpu_list: '1', gpu_busy_pct: 35, is_process: 'y', gpu_type: 'C' }, '2.13'],
  ['PRC in -Z form', `${H('PRC')} 45 cpu_burn_(x)_1 R 100 80 1 0 120 0 0 1 0 45 y 104576701 _ 0 -3 -3`,
    { pid: 45, name: 'cpu_burn_(x)_1', wchan: '_', utime_ticks: 80 }, '2.8'],
  ['DSK queue printed as -nan', `${H('DSK')} sda 0 0 0 0 0 0 0 0 -nan`, { name: 'sda', avg_queue: '-nan' }, '2.8–2.13'],
];

for (const [title, text, fields, layout] of cases) {
  test(`label line: ${title}`, (t) => {
    const read = readLine(text);
    if (read.kind !== 'data') return t.fail(JSON.stringify(read));
    t.like(read.fields, fields);
    t.is(read.layout, layout);
  });
}

test('an epoch beyond any date is garbage, not a thrown RangeError', (t) => {
  const read = readLine('CPL db1 99999999999999999999 2026/11/30 14:10:00 10 2 0.1 0.1 0.1 1 1');
  t.like(read, { kind: 'bad', error: 'garbage_line' });
});
