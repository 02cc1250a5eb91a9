// Finds rsyslogd and its Kafka output module (omkafka), installing Debian's `rsyslog` and `rsyslog-kafka` with
// apt-get when they are missing and the bench runs as root. The bench never uses the system service: it runs its
// own rsyslogd in the foreground (rsyslog-ship.ts). Where /usr/sbin/policy-rc.d is absent, the package's install
// script may start the system service; that one is left alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Rsyslog {
  binary: string;
  /** Folder holding omkafka.so and imfile.so, for `module(load=…)` by path-less name via `$ModDir`. */
  moduleDir: string;
  version: string;
}

function omkafkaPath(): string | null {
  const listed = spawnSync('dpkg', ['-L', 'rsyslog-kafka'], { encoding: 'utf8' });
  if (listed.status !== 0) return null;
  return listed.stdout.split('\n').find((p) => p.endsWith('/omkafka.so') && existsSync(p)) ?? null;
}

function find(): Rsyslog | null {
  const binary = ['/usr/sbin/rsyslogd', '/sbin/rsyslogd'].find((p) => existsSync(p));
  const omkafka = omkafkaPath();
  if (binary === undefined || omkafka === null) return null;
  const version = /rsyslogd\s+([\d.]+)/.exec(spawnSync(binary, ['-v'], { encoding: 'utf8' }).stdout)?.[1] ?? 'unknown';
  return { binary, moduleDir: omkafka.slice(0, omkafka.lastIndexOf('/')), version };
}

/** rsyslogd and omkafka, installed on the way if needed; null with the reason when that cannot be done here. */
export function ensureRsyslog(): { rsyslog: Rsyslog } | { why: string } {
  const found = find();
  if (found !== null) return { rsyslog: found };
  if (process.getuid?.() !== 0) return { why: 'rsyslog and rsyslog-kafka are not installed and the bench is not root: apt-get install rsyslog rsyslog-kafka' };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    // Once per machine: the package lists may be absent or stale on a fresh one.
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore', timeout: 300_000 });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'rsyslog', 'rsyslog-kafka'], { env, stdio: 'ignore', timeout: 600_000 });
  } catch (error) {
    return { why: `apt-get install rsyslog rsyslog-kafka failed: ${(error as Error).message}` };
  }
  const installed = find();
  return installed === null ? { why: 'rsyslog-kafka installed, but omkafka.so was not found in its file list' } : { rsyslog: installed };
}
