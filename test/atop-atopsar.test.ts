// derive.ts against atopsar: CPU, disk, load, memory and interface figures computed from
// atop-2.8.1-raw-P-ALL.txt equal what atopsar printed for the same raw file, within its printed rounding.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AtopRecord } from '../schemas/atop-record.js';
import { SampleMetricsSchema, type SampleMetrics } from '../schemas/atop-metrics.js';
import { createAtopParser } from '../parsers/atop/index.js';
import { deriveSample, groupSamples } from '../parsers/atop/derive.js';
import { missingCorpus, testIf } from './support/prerequisites.js';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/atop', import.meta.url));
const maybe = testIf(missingCorpus('atop/atopsar-2.8.1-raw-cpmsdiw.txt'));

/** atopsar's sections as { header word (`_cpu_`…): rows of words }, each row prefixed with its time. */
function readAtopsar(text: string): Map<string, string[][]> {
  const sections = new Map<string, string[][]>();
  let rows: string[][] | null = null;
  let time = '';
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/).filter((w) => w !== '');
    const tag = words[words.length - 1] ?? '';
    if (/^_\w+_$/.test(tag) || /_\w+_$/.test(tag)) {
      rows = [];
      sections.set(tag.replace(/^.*(_\w+_)$/, '$1'), rows);
      continue;
    }
    if (rows === null || words.length === 0 || line.startsWith('-')) continue;
    if (/^\d\d:\d\d:\d\d$/.test(words[0]!)) [time] = words.splice(0, 1) as [string];
    rows.push([time, ...words]);
  }
  return sections;
}

/** Whether a value equals a printed figure within the figure's last digit (half a unit of it). */
function near(value: number, printed: string, unit?: number): boolean {
  const decimals = printed.includes('.') ? printed.split('.')[1]!.length : 0;
  return Math.abs(value - Number(printed)) <= (unit ?? 0.5 * 10 ** -decimals) + 1e-9;
}

function derived(): Map<string, SampleMetrics> {
  const parser = createAtopParser({ host: 'agent', source: 'atop', file: 'f', file_key: 'k', offset: 0 });
  const events: AtopRecord[] = parser.push(readFileSync(join(CORPUS, 'atop-2.8.1-raw-P-ALL.txt'))).events;
  events.push(...parser.finish().events);
  const byTime = new Map<string, SampleMetrics>();
  for (const sample of groupSamples(events)) {
    const m = deriveSample(sample);
    if (m !== null && !m.since_boot) byTime.set(sample[0]!.time, SampleMetricsSchema.parse(m));
  }
  return byTime;
}

maybe('CPU percentages per core and for all cores equal atopsar -c', (t) => {
  const samples = derived();
  const rows = readAtopsar(readFileSync(join(CORPUS, 'atopsar-2.8.1-raw-cpmsdiw.txt'), 'utf8')).get('_cpu_')!;
  t.is(rows.length, 12);
  t.is(samples.size, 4, 'atopsar skips the since-boot sample, so do we');
  for (const [time, which, ...printed] of rows) {
    const cpu = samples.get(time!)?.cpu;
    if (cpu == null) return t.fail(`no sample at ${time}`);
    const u = which === 'all' ? cpu.total : cpu.per_cpu.find((c) => c.cpu === Number(which))!;
    const ours = [u.user_pct, u.nice_pct, u.system_pct, u.irq_pct, u.softirq_pct, u.steal_pct, u.guest_pct, u.iowait_pct, u.idle_pct];
    ours.forEach((v, i) => t.true(near(v, printed[i]!), `${time} cpu ${which} column ${i}: ${v} vs ${printed[i]}`));
  }
});

maybe('disk busy %, rates, sizes, queue and service time equal atopsar -d', (t) => {
  const samples = derived();
  const rows = readAtopsar(readFileSync(join(CORPUS, 'atopsar-2.8.1-raw-cpmsdiw.txt'), 'utf8')).get('_dsk_')!;
  t.is(rows.length, 4);
  for (const [time, name, busy, rps, kbr, wps, kbw, avque, avserv] of rows) {
    const d = samples.get(time!)?.disks.find((x) => x.name === name);
    if (d === undefined) return t.fail(`no disk ${name} at ${time}`);
    t.true(near(d.busy_pct, busy!.replace('%', '')), `${time} busy ${d.busy_pct} vs ${busy}`);
    t.true(near(d.reads_per_s, rps!), `${time} read/s ${d.reads_per_s} vs ${rps}`);
    t.true(near(d.kib_per_read ?? 0, kbr!), `${time} KB/read ${d.kib_per_read} vs ${kbr}`);
    t.true(near(d.writes_per_s, wps!), `${time} writ/s ${d.writes_per_s} vs ${wps}`);
    t.true(near(d.kib_per_write ?? 0, kbw!), `${time} KB/writ ${d.kib_per_write} vs ${kbw}`);
    t.true(near(d.avg_queue ?? 0, avque!), `${time} avque ${d.avg_queue} vs ${avque}`);
    t.true(near(d.avg_service_ms ?? 0, avserv!), `${time} avserv ${d.avg_service_ms} vs ${avserv}`);
  }
});

maybe('context switches, interrupts and load averages equal atopsar -p', (t) => {
  const samples = derived();
  const rows = readAtopsar(readFileSync(join(CORPUS, 'atopsar-2.8.1-raw-cpmsdiw.txt'), 'utf8')).get('_load_')!;
  t.is(rows.length, 4);
  for (const [time, pswch, devintr, , l1, l5, l15] of rows) {
    const load = samples.get(time!)?.load;
    if (load == null) return t.fail(`no load at ${time}`);
    t.true(near(load.context_switches_per_s, pswch!), `${time} pswch/s ${load.context_switches_per_s} vs ${pswch}`);
    t.true(near(load.interrupts_per_s, devintr!), `${time} devintr/s`);
    t.deepEqual([load.load1, load.load5, load.load15], [Number(l1), Number(l5), Number(l15)]);
  }
});

maybe('memory and swap sizes equal atopsar -m and -s (whole MiB, cut down)', (t) => {
  const samples = derived();
  const sar = readAtopsar(readFileSync(join(CORPUS, 'atopsar-2.8.1-raw-cpmsdiw.txt'), 'utf8'));
  const mib = (bytes: number) => Math.floor(bytes / 1048576);
  for (const [time, total, free, buffers, cached, dirty, slab, swpTotal, swpFree] of sar.get('_mem_')!) {
    const m = samples.get(time!)?.memory;
    if (m == null) return t.fail(`no memory at ${time}`);
    t.deepEqual(
      [m.total_bytes, m.free_bytes, m.buffers_bytes, m.cache_bytes, m.dirty_bytes, m.slab_bytes, m.swap_total_bytes, m.swap_free_bytes].map(mib),
      [total, free, buffers, cached, dirty, slab, swpTotal, swpFree].map((v) => Number(v!.replace('M', ''))),
      time,
    );
  }
  for (const [time, , , , , commit, limit] of sar.get('_swap_')!) {
    const m = samples.get(time!)!.memory!;
    t.deepEqual([mib(m.committed_bytes), mib(m.commit_limit_bytes)], [Number(commit!.replace('M', '')), Number(limit!.replace('M', ''))]);
  }
});

maybe('interface packets/s and KiB/s equal atopsar -i', (t) => {
  const samples = derived();
  const rows = readAtopsar(readFileSync(join(CORPUS, 'atopsar-2.8.1-raw-cpmsdiw.txt'), 'utf8')).get('_if_')!;
  t.true(rows.length >= 4);
  for (const [time, name, , ipack, opack, ikb, okb] of rows) {
    const i = samples.get(time!)?.interfaces.find((x) => x.name === name);
    if (i === undefined) return t.fail(`no interface ${name} at ${time}`);
    t.true(near(i.rx_packets_per_s, ipack!) && near(i.tx_packets_per_s, opack!), `${time} ${name} packets`);
    t.true(near(i.rx_kib_per_s, ikb!) && near(i.tx_kib_per_s, okb!), `${time} ${name} KiB/s ${i.rx_kib_per_s} vs ${ikb}`);
  }
});
