// Hand-computed cases for the derived values atopsar does not print: interface busy %, memory used %,
// run queue and top processes, and the rule that a since-boot sample yields no rates.
import test from 'ava';
import type { AtopRecord } from '../../schemas/atop-record.js';
import { SampleMetricsSchema } from '../../schemas/atop-metrics.js';
import { createAtopParser } from './index.js';
import { deriveSample, groupSamples } from './derive.js';

const line = (label: string, rest: string) => `${label} db1 1796047800 2026/11/30 14:10:00 10 ${rest}`;
// 2 CPUs, hertz 100, 10 s: 2000 ticks in all, so elapsed = 2000 / 100 / 2 = 10 s.
const SAMPLE = [
  line('CPU', '100 2 200 600 0 1100 100 0 0 0 0 3000 100 0 0'),
  line('cpu', '100 0 100 500 0 350 50 0 0 0 0 3000 100 0 0'),
  line('cpu', '100 1 100 100 0 750 50 0 0 0 0 3000 100 0 0'),
  line('CPL', '2 1.50 1.00 0.50 5000 2000'),
  // 1000 pages of 4 KiB: free 500, cache 200, buffers 50, slab reclaimable 30, shmem 20 → used 240 pages = 24 %.
  line('MEM', '4096 1000 500 200 50 60 5 30 0 20 0 0 2097152 0 0 0 0 0 0 0 0'),
  line('SWP', '4096 100 75 0 300 600 0 0 0'),
  // 1000 Mbit/s full duplex, 10 s: 250 MB received = 200 Mbit/s = 20 %; 1 MB sent.
  line('NET', 'eth0 1000 250000000 500 1000000 1000 1'),
  line('DSK', 'sda 5000 100 2000 300 6000 0 0 2 1.50'),
  line('PRG', '10 (postgres) S 0 0 10 3 0 1796040000 (postgres: writer) 1 0 3 0 0 0 0 0 0 0 0 y 0 0 - - ()'),
  line('PRG', '11 (rphost) R 0 0 11 1 0 1796040000 (rphost -range 1560:1591) 1 1 0 0 0 0 0 0 0 0 0 y 0 0 - - ()'),
  line('PRG', '12 (rphost) R 0 0 11 1 0 1796040000 () 1 1 0 0 0 0 0 0 0 0 0 n 0 0 - - ()'),
  line('PRC', '10 (postgres) S 100 100 50 0 120 0 0 0 0 10 y 0 () 0 -3 -3'),
  line('PRC', '11 (rphost) R 100 700 100 0 120 0 0 1 0 11 y 0 () 0 -3 -3'),
  line('PRC', '12 (rphost) R 100 700 100 0 120 0 0 1 0 11 n 0 () 0 -3 -3'),
  line('PRM', '10 (postgres) S 4096 900000 500000 0 0 100 0 0 0 0 0 0 10 y 0 0 -3 -3 -3 -3'),
  line('PRM', '11 (rphost) R 4096 2000000 800000 0 0 2048 0 0 0 0 0 0 11 y 0 0 -3 -3 -3 -3'),
  line('PRD', '10 (postgres) S n y 4000 4000 200 200 0 10 n y'),
  line('PRD', '11 (rphost) R n y 0 0 20 20 0 11 n y'),
  'SEP',
  '',
].join('\n');

function records(text: string): AtopRecord[] {
  const parser = createAtopParser({ host: 'agent', source: 'atop', file: 'f', file_key: 'k', offset: 0 });
  const out = parser.push(Buffer.from(text));
  return [...out.events, ...parser.finish().events];
}

test('hand-computed CPU, load, memory, disk, interface and top-process figures', (t) => {
  const m = SampleMetricsSchema.parse(deriveSample(records(SAMPLE), 2));
  t.is(m.elapsed_s, 10);
  t.like(m.cpu!.total, { busy_pct: 40, user_pct: 60, system_pct: 20, idle_pct: 110, iowait_pct: 10 });
  t.like(m.cpu!.per_cpu[0]!, { cpu: 0, busy_pct: 60, user_pct: 50 });
  t.like(m.load!, { context_switches_per_s: 500, interrupts_per_s: 200, run_queue: 1 });
  t.like(m.memory!, { used_bytes: 240 * 4096, used_pct: 24, swap_used_bytes: 25 * 4096, swap_used_pct: 25, available_bytes: null });
  // sda: 5000 ms busy of 10 s = 50 %; 400 I/Os → 12.5 ms each; 2000 + 6000 sectors = 100 + 300 KiB/s.
  t.like(m.disks[0]!, { busy_pct: 50, reads_per_s: 10, writes_per_s: 30, read_kib_per_s: 100, write_kib_per_s: 300,
    kib_per_read: 10, kib_per_write: 10, avg_service_ms: 12.5, avg_queue: 1.5, inflight: 2 });
  t.like(m.interfaces[0]!, { name: 'eth0', rx_packets_per_s: 100, rx_kib_per_s: 250000000 / 1024 / 10, busy_pct: 20 });
  // rphost: (700 + 100) ticks / (100 Hz × 10 s) = 80 %; its thread line (is_process n) is not counted again.
  t.deepEqual(m.top.by_cpu.map((p) => [p.name, p.cpu_pct]), [['rphost', 80], ['postgres', 15]]);
  t.deepEqual(m.top.by_memory.map((p) => [p.pid, p.rss_kib]), [[11, 800000], [10, 500000]]);
  t.deepEqual(m.top.by_disk.map((p) => [p.pid, p.read_kib_per_s, p.write_kib_per_s]), [[10, 200, 10], [11, 0, 1]]);
});

test('a since-boot sample gives gauges but no rates', (t) => {
  const m = deriveSample(records(`RESET\n${SAMPLE}`))!;
  t.true(m.since_boot);
  t.is(m.cpu, null);
  t.is(m.load, null);
  t.deepEqual(m.disks, []);
  t.deepEqual(m.interfaces, []);
  t.deepEqual(m.top.by_cpu, []);
  t.is(m.memory!.used_pct, 24);
  t.is(m.top.by_memory.length, 2);
});

test('samples are grouped by SEP, and by epoch in fragments without SEP', (t) => {
  const twoSamples = records(`${SAMPLE}${SAMPLE.replaceAll('1796047800', '1796047810')}`);
  t.deepEqual(groupSamples(twoSamples).map((s) => s.length), [18, 18]);
  const fragment = records([line('CPL', '2 1 1 1 1 1'), line('CPL', '2 1 1 1 1 1').replace('1796047800', '1796047810')].join('\n'));
  t.deepEqual(groupSamples(fragment).map((s) => s[0]!.epoch), [1796047800, 1796047810]);
});
