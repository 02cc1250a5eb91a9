// Who holds an embedded data directory. The engine locks `<dir>/status` with flock(2) (ClickHouse's StatusFile)
// and, when that fails, chdb reports only "Failed to create connection" (the engine's own words go to stderr): the
// holder is found in the kernel's lock table instead, /proc/locks, by the file's device and inode.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface LockHolder {
  pid: number;
  /** Its command line, when this process may read it. */
  command?: string;
}

/**
 * The pid holding a flock on the file `dev:ino` in `/proc/locks` text, whose lines read
 * `1: FLOCK  ADVISORY  WRITE 25821 fe:00:10289519 0 EOF` (major and minor in hex, inode in decimal).
 */
export function flockHolder(procLocks: string, dev: number, ino: number): number | null {
  // glibc's gnu_dev_major/minor for the 32-bit dev_t Node reports.
  const major = ((dev >>> 8) & 0xfff).toString(16).padStart(2, '0');
  const minor = ((dev & 0xff) | ((dev >>> 12) & 0xfff00)).toString(16).padStart(2, '0');
  const id = `${major}:${minor}:${ino}`;
  for (const line of procLocks.split('\n')) {
    const f = line.trim().split(/\s+/);
    // "1:" "FLOCK" "ADVISORY" "WRITE" pid dev:ino start end; blocked waiters are shown as "1: ->" and shift by one.
    if (f[1] === 'FLOCK' && f[5] === id) return Number(f[4]);
  }
  return null;
}

/** The process holding the engine's lock on `dataDir` (the `clickhouse` directory), or null: none, or not Linux. */
export function lockHolder(dataDir: string): LockHolder | null {
  try {
    const st = statSync(join(dataDir, 'status'));
    const pid = flockHolder(readFileSync('/proc/locks', 'utf8'), st.dev, st.ino);
    if (pid === null || pid === process.pid) return null;
    let command: string | undefined;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') || undefined;
    } catch {
      // another user's process, or gone since
    }
    return command ? { pid, command } : { pid };
  } catch {
    return null;
  }
}
