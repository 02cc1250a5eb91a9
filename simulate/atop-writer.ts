// `atop -P CPU,cpu,CPL,MEM,DSK,NET,PRG,PRC INTERVAL` text of the database host as atop 2.8 (Debian 12) prints it:
// label order, field counts and parenthesised names per docs/atop-format.md §2–§5 and parsers/atop/labels/.
// The first sample holds since-boot counters and starts with RESET; every sample ends with SEP.
import type { Prng } from './prng.js';

export interface AtopProcess {
  pid: number;
  name: string;
  cmdline: string; // no parentheses: atop wraps it in them
  /** Share of one CPU the process used in the interval, 0–1. */
  busy: number;
}

export interface AtopSample {
  /** End of the interval, epoch s. */
  epoch: number;
  /** Seconds covered; the uptime for the since-boot sample. */
  interval: number;
  sinceBoot: boolean;
  /** Share of all CPUs busy in the interval, 0–1. */
  busy: number;
  /** Blocks written to disk in the interval, 512 B sectors. */
  writeSectors: number;
  processes: AtopProcess[];
}

export const ATOP_HOST = 'pg-load-01';
const HERTZ = 100;
const NRCPU = 4;
const PAGE = 4096;
const PHYS_PAGES = 8_388_608; // 32 GiB

const pad = (n: number): string => String(n).padStart(2, '0');

/** Date and time as the reading atop prints them (`localtime()`); the simulated host runs in UTC. */
function header(label: string, s: AtopSample): string {
  const d = new Date(s.epoch * 1000);
  return `${label} ${ATOP_HOST} ${s.epoch} ${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${s.interval}`;
}

/** stime utime nice idle iowait irq softirq steal guest: ticks that add up to `total`. */
function ticks(rng: Prng, total: number, busy: number): number[] {
  const used = Math.round(total * busy);
  const sys = Math.round(used * 0.25);
  const iowait = Math.min(total - used, Math.round(total * 0.02 * rng.next()));
  const irq = Math.round(used * 0.01);
  const soft = Math.round(used * 0.02);
  const user = used - sys - irq - soft;
  return [sys, user, 0, total - used - iowait, iowait, irq, soft, 0, 0];
}

export function formatAtopSample(rng: Prng, s: AtopSample): string {
  const lines: string[] = [];
  if (s.sinceBoot) lines.push('RESET');
  const perCpu = HERTZ * s.interval;
  const cores = Array.from({ length: NRCPU }, () => ticks(rng, perCpu, Math.min(0.98, s.busy * (0.8 + 0.4 * rng.next()))));
  const sum = cores.reduce((acc, c) => acc.map((v, i) => v + (c[i] ?? 0)), new Array(9).fill(0) as number[]);
  lines.push(`${header('CPU', s)} ${HERTZ} ${NRCPU} ${sum.join(' ')} 2600 100 0 0`);
  cores.forEach((c, i) => lines.push(`${header('cpu', s)} ${HERTZ} ${i} ${c.join(' ')} 2600 100 0 0`));
  const load = (NRCPU * s.busy).toFixed(2);
  lines.push(`${header('CPL', s)} ${NRCPU} ${load} ${load} ${load} ${Math.round(s.interval * (2000 + 50_000 * s.busy))} ${Math.round(s.interval * 3000)}`);
  const free = Math.round(PHYS_PAGES * (0.35 - 0.1 * s.busy));
  const cache = Math.round(PHYS_PAGES * 0.45);
  lines.push(`${header('MEM', s)} ${PAGE} ${PHYS_PAGES} ${free} ${cache} 51200 120000 ${rng.int(100, 5000)} 90000 0 1048576 1048576 0 2097152 0 0 0 0 0 210 4 9000`);
  const writes = Math.round(s.writeSectors / 16);
  lines.push(`${header('DSK', s)} nvme0n1 ${Math.min(s.interval * 1000, Math.round(writes * 0.4) + rng.int(0, 50))} ${rng.int(0, 40) * s.interval} ${rng.int(0, 4000) * s.interval} ${writes} ${s.writeSectors} 0 0 0 ${(1 + s.busy).toFixed(2)}`);
  const segs = Math.round(s.interval * (200 + 40_000 * s.busy));
  lines.push(`${header('NET', s)} upper ${segs} ${segs} 0 0 ${segs} ${segs} ${segs} 0 0 0 ${rng.int(0, 3)} ${rng.int(0, 3)} ${s.processes.length} ${rng.int(0, 2)} 0 0`);
  lines.push(`${header('NET', s)} lo ${rng.int(0, 100)} ${rng.int(0, 10_000)} ${rng.int(0, 100)} ${rng.int(0, 10_000)} 0 0`);
  lines.push(`${header('NET', s)} eth0 ${segs} ${segs * 700} ${segs} ${segs * 900} 10000 1`);
  const start = s.epoch - 86_400;
  for (const p of s.processes) {
    // PRG 2.8: pid (name) state ruid rgid tgid nthreads exit btime (cmdline) ppid R S D euid egid suid sgid fsuid fsgid elapsed is_process vpid ctid container new (cgroup)
    lines.push(`${header('PRG', s)} ${p.pid} (${p.name}) ${p.busy > 0.3 ? 'R' : 'S'} 113 120 ${p.pid} 1 0 ${start} (${p.cmdline}) 1 ${p.busy > 0.3 ? 1 : 0} ${p.busy > 0.3 ? 0 : 1} 0 113 120 113 120 113 120 0 y 0 0 - - (/system.slice/postgresql@15-main.service)`);
  }
  for (const p of s.processes) {
    const used = Math.round(HERTZ * s.interval * p.busy);
    // PRC 2.8: pid (name) state hertz utime stime nice prio rtprio policy cpu sleepavg tgid is_process rundelay (wchan) blkio cpumax cpumax_r
    lines.push(`${header('PRC', s)} ${p.pid} (${p.name}) ${p.busy > 0.3 ? 'R' : 'S'} ${HERTZ} ${Math.round(used * 0.8)} ${used - Math.round(used * 0.8)} 0 120 0 0 ${p.pid % NRCPU} 0 ${p.pid} y ${rng.int(0, 2_000_000)} () 0 -3 -3`);
  }
  lines.push('SEP');
  return `${lines.join('\n')}\n`;
}
