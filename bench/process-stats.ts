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

/** The middle of the rounds (the upper one of an even count): a neighbour's burst moves it less than a mean. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

export interface TimedRun { s: number; code: number | null; stdout: string; stderr: string; peakKiB: number }

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
  const poll = setInterval(() => { peakKiB = Math.max(peakKiB, peakRssKiB(child.pid ?? 0)); }, 50);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => { clearInterval(poll); closeSync(devNull); reject(error); });
    // 'exit' comes before the process is reaped: /proc still holds its VmHWM here.
    child.on('exit', () => { peakKiB = Math.max(peakKiB, peakRssKiB(child.pid ?? 0)); });
    child.on('close', (code) => {
      clearInterval(poll);
      closeSync(devNull);
      resolve({ s: Number(process.hrtime.bigint() - started) / 1e9, code, stdout, stderr, peakKiB });
    });
  });
}
