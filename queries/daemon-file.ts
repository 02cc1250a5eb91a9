// How `perfpipe sql` finds a running `perfpipe run` on the same data directory: the embedded engine
// allows one process per data directory (chdb binds one directory per process), so while the daemon
// runs, other commands send their SQL to its local HTTP port. The file is private (0600): it holds the
// token the daemon requires on /sql.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface DaemonInfo {
  pid: number;
  url: string;
  token: string;
}

export function daemonFilePath(data: string): string {
  return join(resolve(data), 'daemon.json');
}

export function writeDaemonFile(data: string, info: DaemonInfo): void {
  mkdirSync(resolve(data), { recursive: true });
  writeFileSync(daemonFilePath(data), JSON.stringify(info), { mode: 0o600 });
}

export function removeDaemonFile(data: string, pid = process.pid): void {
  const info = readDaemonFile(data);
  if (info?.pid === pid) rmSync(daemonFilePath(data), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running daemon of this data directory, or null (a file left by a killed daemon is ignored). */
export function readDaemonFile(data: string): DaemonInfo | null {
  try {
    const info = JSON.parse(readFileSync(daemonFilePath(data), 'utf8')) as DaemonInfo;
    return alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}
