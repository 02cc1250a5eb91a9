// Keeps one long-running atop process alive for the `atop_spawn` source: starts it, hands each run's stdout to
// `read`, starts it again after it ends (waiting 1 s, doubling up to a cap, and back to 1 s after a healthy run),
// and on stop sends SIGTERM, then SIGKILL after 3 s, and waits until the process is gone, so `perfpipe run`
// leaves no atop behind. Should perfpipe itself be killed (SIGKILL), atop dies by SIGPIPE at its next sample:
// libuv starts children with default signal dispositions, and atop's stdout is the pipe whose reader is gone.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { sleep } from '../../retry/sleep.js';
import { backoffMs } from '../../retry/backoff.js';

export interface AtopRun {
  pid: number;
  startedAt: number;
}

export interface AtopProcessOptions {
  command: string;
  args: string[];
  /** Reads a run's stdout to its end; resolves true when the run delivered samples (the backoff starts over). */
  read(stdout: Readable, run: AtopRun): Promise<boolean>;
  /** A run ended (or could not start) while not stopping; atop is started again after `retryMs`. */
  ended(run: AtopRun | null, reason: string, retryMs: number): void;
  maxBackoffMs: number;
}

export interface AtopProcess {
  /** Stops the running atop and waits until it has exited; safe twice. */
  stop(): Promise<void>;
}

export function superviseAtop(o: AtopProcessOptions): AtopProcess {
  const abort = new AbortController();
  let killCurrent: (() => Promise<void>) | null = null;

  async function runOnce(): Promise<{ healthy: boolean; run: AtopRun | null; reason: string }> {
    const child = spawn(o.command, o.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-1024); });
    const exited = new Promise<string>((resolve) => {
      child.once('error', (error) => resolve(`cannot run ${o.command}: ${error.message}`));
      child.once('close', (code, signal) => resolve(`${o.command} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
    });
    killCurrent = async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(force);
      }
    };
    if (child.pid === undefined) return { healthy: false, run: null, reason: await exited };
    const run = { pid: child.pid, startedAt: Date.now() };
    const healthy = await o.read(child.stdout, run).catch(() => false);
    if (!abort.signal.aborted) await killCurrent(); // read gave up (publish failed for good): end this run
    return { healthy, run, reason: await exited };
  }

  const loop = (async () => {
    let failures = 0;
    while (!abort.signal.aborted) {
      const { healthy, run, reason } = await runOnce();
      if (abort.signal.aborted) break;
      failures = healthy ? 1 : failures + 1;
      const retryMs = backoffMs(failures, 1000, o.maxBackoffMs);
      o.ended(run, reason, retryMs);
      await sleep(retryMs, abort.signal);
    }
  })();

  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        abort.abort();
        await killCurrent?.();
        await loop;
      })();
      return stopping;
    },
  };
}
