// What the benches read about a process they time, and how they summarise rounds.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** Peak resident memory (VmHWM, KiB) of a live process; 0 once it is gone. */
export function peakRssKiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export interface ProcessMemory { rssKiB: number; hwmKiB: number; anonKiB: number; fileKiB: number; threads: number }

/** Resident memory of a live process (/proc/PID/status: anonymous and file-backed pages apart), all 0 once it is gone. */
export function processMemory(pid: number): ProcessMemory {
  let status = '';
  try { status = readFileSync(`/proc/${pid}/status`, 'utf8'); } catch { /* gone */ }
  const field = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM'), anonKiB: field('RssAnon'), fileKiB: field('RssFile'), threads: field('Threads') };
}

/** The middle of the rounds (the upper one of an even count): a neighbour's burst moves it less than a mean. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

/** CPU seconds (user + system, every thread) a live process used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** USER_HZ: 100 on every Linux kernel built for the architectures Node.js runs on. */
const CLOCK_TICKS = 100;

/**
 * `cpuS`: the process's CPU time as last sampled (every 50 ms: it may miss its last 50 ms). On a shared machine a
 * process waits for a core; its CPU time moves far less with the neighbours' load than its wall time.
 */
export interface TimedRun { s: number; code: number | null; stdout: string; stderr: string; peakKiB: number; cpuS: number }

/**
 * Runs a command from spawn to exit: wall seconds, exit code, stderr, stdout when `captureStdout` (else /dev/null:
 * `parse` prints hundreds of MB) and its peak RSS, sampled every 50 ms and once more at exit.
 */
export function timed(command: string, args: string[], captureStdout = false): Promise<TimedRun> {
  const devNull = openSync('/dev/null', 'w');
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { stdio: ['ignore', captureStdout ? 'pipe' : devNull, 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  let peakKiB = 0;
  let cpuS = 0;
  const poll = setInterval(() => {
    peakKiB = Math.max(peakKiB, peakRssKiB(child.pid ?? 0));
    cpuS = Math.max(cpuS, cpuSeconds(child.pid ?? 0));
  }, 50);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => { clearInterval(poll); closeSync(devNull); reject(error); });
    // 'exit' comes before the process is reaped: /proc still holds its VmHWM here.
    child.on('exit', () => { peakKiB = Math.max(peakKiB, peakRssKiB(child.pid ?? 0)); cpuS = Math.max(cpuS, cpuSeconds(child.pid ?? 0)); });
    child.on('close', (code) => {
      clearInterval(poll);
      closeSync(devNull);
      resolve({ s: Number(process.hrtime.bigint() - started) / 1e9, code, stdout, stderr, peakKiB, cpuS });
    });
  });
}
