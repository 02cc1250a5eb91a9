// Reads the host facts a run remembers (parsers/host/host-facts.ts says what each file means): the files of /proc and
// /sys, and `atop -V`. A file or command that is not there (another OS, a container, atop not installed) is skipped.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { HOST_SOURCES, hostFacts, type HostFact } from '../../parsers/host/host-facts.js';

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

const atopVersion = (): Promise<string | undefined> => new Promise((resolve) => {
  execFile('atop', ['-V'], { timeout: 5_000 }, (error, stdout, stderr) => resolve(error !== null && stdout === '' ? undefined : `${stdout}${stderr}`));
});

export interface HostContext { host: string; facts: HostFact[] }

/** This host's facts; `host` names it in the context's scope (`host:<name>`), by default the OS hostname. */
export async function readHostContext(host = hostname()): Promise<HostContext> {
  let nodeEntries: string[] | undefined;
  try {
    nodeEntries = readdirSync(HOST_SOURCES.nodes);
  } catch {
    nodeEntries = undefined;
  }
  const facts = hostFacts({
    cpuinfo: read(HOST_SOURCES.cpuinfo), meminfo: read(HOST_SOURCES.meminfo), osrelease: read(HOST_SOURCES.osrelease),
    cmdline: read(HOST_SOURCES.cmdline), nodeEntries, cpuidleDriver: read(HOST_SOURCES.cpuidleDriver),
    cpuidleGovernor: read(HOST_SOURCES.cpuidleGovernor), cpufreqGovernor: read(HOST_SOURCES.cpufreqGovernor),
    thpEnabled: read(HOST_SOURCES.thpEnabled), thpDefrag: read(HOST_SOURCES.thpDefrag), atopVersion: await atopVersion(),
  } as Parameters<typeof hostFacts>[0]);
  return { host, facts };
}
