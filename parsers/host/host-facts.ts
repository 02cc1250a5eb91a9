// What a host's own files say about it, for the context a run remembers (issue #25 item 4, docs/runs.md): CPU model,
// logical CPUs, cores and sockets, NUMA nodes, memory, kernel and its command line, cpuidle driver and governor,
// cpufreq governor, transparent huge pages, atop version. Pure: file texts in, facts out (ingest/context/ reads them).

/** One fact of a host: a name, its value as text, and the file or command it was read from. */
export interface HostFact { name: string; value: string; source: string }

/** The texts read from the host; a file or command that is not there is left out. */
export interface HostTexts {
  cpuinfo?: string;
  meminfo?: string;
  osrelease?: string;
  cmdline?: string;
  /** Names in /sys/devices/system/node (node0, node1, …, has_cpu …). */
  nodeEntries?: readonly string[];
  cpuidleDriver?: string;
  cpuidleGovernor?: string;
  cpufreqGovernor?: string;
  thpEnabled?: string;
  thpDefrag?: string;
  /** What `atop -V` prints. */
  atopVersion?: string;
}

export const HOST_SOURCES = {
  cpuinfo: '/proc/cpuinfo', meminfo: '/proc/meminfo', osrelease: '/proc/sys/kernel/osrelease', cmdline: '/proc/cmdline',
  nodes: '/sys/devices/system/node', cpuidleDriver: '/sys/devices/system/cpu/cpuidle/current_driver',
  cpuidleGovernor: '/sys/devices/system/cpu/cpuidle/current_governor', cpufreqGovernor: '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor',
  thpEnabled: '/sys/kernel/mm/transparent_hugepage/enabled', thpDefrag: '/sys/kernel/mm/transparent_hugepage/defrag', atop: 'atop -V',
} as const;

/** `key : value` lines of /proc/cpuinfo, one block per logical CPU. */
function cpuBlocks(text: string): Array<Map<string, string>> {
  return text.split(/\n\s*\n/).filter((b) => b.trim() !== '').map((block) => new Map(block.split('\n').map((line) => {
    const i = line.indexOf(':');
    return [line.slice(0, i < 0 ? line.length : i).trim(), i < 0 ? '' : line.slice(i + 1).trim()] as const;
  })));
}

/** `always [madvise] never` → `madvise`: the bracketed choice of a sysfs switch. */
export function bracketed(text: string): string {
  return /\[([^\]]+)\]/.exec(text)?.[1] ?? text.trim();
}

export function hostFacts(t: HostTexts): HostFact[] {
  const out: HostFact[] = [];
  const add = (name: string, value: string | undefined, source: string): void => {
    if (value !== undefined && value.trim() !== '') out.push({ name, value: value.trim(), source });
  };
  if (t.cpuinfo !== undefined) {
    const cpus = cpuBlocks(t.cpuinfo).filter((b) => b.has('processor'));
    add('cpu_model', cpus[0]?.get('model name') ?? cpus[0]?.get('Model') ?? cpus[0]?.get('CPU part'), HOST_SOURCES.cpuinfo);
    add('cpus', cpus.length > 0 ? String(cpus.length) : undefined, HOST_SOURCES.cpuinfo);
    const sockets = new Set(cpus.map((b) => b.get('physical id')).filter((x) => x !== undefined));
    add('sockets', String(Math.max(1, sockets.size)), HOST_SOURCES.cpuinfo);
    // Cores: distinct (socket, core id) pairs; without them (some VMs, ARM) every logical CPU is a core.
    const cores = new Set(cpus.filter((b) => b.has('core id')).map((b) => `${b.get('physical id') ?? 0}/${b.get('core id')}`));
    add('cores', String(cores.size > 0 ? cores.size : cpus.length), HOST_SOURCES.cpuinfo);
  }
  const kb = t.meminfo === undefined ? null : /^MemTotal:\s+(\d+)\s*kB/m.exec(t.meminfo);
  if (kb) add('memory_mib', String(Math.round(Number(kb[1]) / 1024)), HOST_SOURCES.meminfo);
  add('kernel', t.osrelease, HOST_SOURCES.osrelease);
  add('kernel_cmdline', t.cmdline, HOST_SOURCES.cmdline);
  if (t.nodeEntries !== undefined) add('numa_nodes', String(t.nodeEntries.filter((n) => /^node\d+$/.test(n)).length), HOST_SOURCES.nodes);
  add('cpuidle_driver', t.cpuidleDriver, HOST_SOURCES.cpuidleDriver);
  add('cpuidle_governor', t.cpuidleGovernor, HOST_SOURCES.cpuidleGovernor);
  add('cpufreq_governor', t.cpufreqGovernor, HOST_SOURCES.cpufreqGovernor);
  if (t.thpEnabled !== undefined) add('transparent_hugepage', bracketed(t.thpEnabled), HOST_SOURCES.thpEnabled);
  if (t.thpDefrag !== undefined) add('transparent_hugepage_defrag', bracketed(t.thpDefrag), HOST_SOURCES.thpDefrag);
  // `Version: 2.8.1 - 2023/01/07 12:00:00     <gerlof.langeveld@atoptool.nl>`
  add('atop_version', t.atopVersion === undefined ? undefined : /Version:?\s+([\w.-]+)/i.exec(t.atopVersion)?.[1], HOST_SOURCES.atop);
  return out;
}
