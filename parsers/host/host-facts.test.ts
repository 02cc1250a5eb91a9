import test from 'ava';
import { bracketed, hostFacts } from './host-facts.js';

const cpuinfo = (sockets: number, coresPer: number, threads: number): string => {
  const blocks: string[] = [];
  let n = 0;
  for (let s = 0; s < sockets; s++) for (let c = 0; c < coresPer; c++) for (let t = 0; t < threads; t++) {
    blocks.push(`processor\t: ${n++}\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz\nphysical id\t: ${s}\ncore id\t\t: ${c}\ncpu cores\t: ${coresPer}`);
  }
  return `${blocks.join('\n\n')}\n\n`;
};
const value = (facts: ReturnType<typeof hostFacts>, name: string) => facts.find((f) => f.name === name)?.value;

test('two sockets of 24 cores with hyper-threading: 96 CPUs, 48 cores, 2 sockets, and the model', (t) => {
  const f = hostFacts({ cpuinfo: cpuinfo(2, 24, 2) });
  t.is(value(f, 'cpus'), '96');
  t.is(value(f, 'cores'), '48');
  t.is(value(f, 'sockets'), '2');
  t.is(value(f, 'cpu_model'), 'Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz');
  t.is(f.find((x) => x.name === 'cpus')?.source, '/proc/cpuinfo');
});

test('a VM without physical id or core id counts one socket and a core per CPU', (t) => {
  const f = hostFacts({ cpuinfo: 'processor\t: 0\nmodel name\t: QEMU Virtual CPU\n\nprocessor\t: 1\nmodel name\t: QEMU Virtual CPU\n' });
  t.deepEqual([value(f, 'cpus'), value(f, 'cores'), value(f, 'sockets')], ['2', '2', '1']);
});

test('memory, kernel, command line, NUMA nodes, cpuidle, cpufreq, THP and atop each come from their file', (t) => {
  const f = hostFacts({
    meminfo: 'MemTotal:       263842716 kB\nMemFree:         1000 kB\n', osrelease: '6.1.0-13-amd64\n',
    cmdline: 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_idle.max_cstate=1 processor.max_cstate=1\n',
    nodeEntries: ['has_cpu', 'node0', 'node1', 'online', 'possible'], cpuidleDriver: 'intel_idle\n', cpuidleGovernor: 'menu\n',
    cpufreqGovernor: 'performance\n', thpEnabled: 'always madvise [never]\n', thpDefrag: '[always] defer defer+madvise madvise never\n',
    atopVersion: 'Version: 2.8.1 - 2023/01/07 12:00:00     <gerlof.langeveld@atoptool.nl>\n',
  });
  t.deepEqual(Object.fromEntries(f.map((x) => [x.name, x.value])), {
    memory_mib: '257659', kernel: '6.1.0-13-amd64', kernel_cmdline: 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_idle.max_cstate=1 processor.max_cstate=1',
    numa_nodes: '2', cpuidle_driver: 'intel_idle', cpuidle_governor: 'menu', cpufreq_governor: 'performance',
    transparent_hugepage: 'never', transparent_hugepage_defrag: 'always', atop_version: '2.8.1',
  });
});

test('a file that is not there gives no fact, and an empty one neither', (t) => {
  t.deepEqual(hostFacts({}), []);
  t.deepEqual(hostFacts({ cpuidleDriver: '\n' }), []);
  t.is(bracketed('madvise'), 'madvise');
});
