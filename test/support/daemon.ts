// perfpipe daemons (`agent`, `sink`) as child processes for distributed tests and the chaos run: a free
// loopback port each, wait for /ready, SIGTERM or SIGKILL, and SQL through a sink's own /sql.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { cliArgs, repoRoot } from './cli.js';
import { owned } from './owned-children.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Daemon {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr so far (its warn/error log lines). */
  log(): string;
  exited: Promise<number | null>;
  /** SIGTERM (clean stop) or SIGKILL; resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function spawnDaemon(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Daemon> {
  const port = await freePort();
  const child = owned(spawn(process.execPath, [...(process.env.PERFPIPE_DAEMON_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...cliArgs, ...args, '--listen', `127.0.0.1:${port}`], {
    cwd: repoRoot, env: { ...process.env, PERFPIPE_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'],
  }));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child, url: `http://127.0.0.1:${port}`, log: () => stderr, exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function httpGet(url: string): Promise<{ status: number; text: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, text: await res.text() };
  } catch {
    return { status: 0, text: '' };
  }
}

export async function waitFor(condition: () => Promise<boolean> | boolean, what: string, timeoutMs: number, everyMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A daemon that did not become ready in time: it was SIGKILLed, and `daemon.log()` keeps what it wrote for the post-mortem. */
export class DaemonStartTimeout extends Error {
  constructor(readonly daemon: Daemon, message: string) {
    super(message);
  }
}

/** The last warn-or-worse line of a daemon's log with its `err` (pino JSON: level 40+), to say why it is not ready. */
export function lastFailure(log: string): string | null {
  const lines = log.split('\n').filter((line) => line.trim() !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const entry = JSON.parse(lines[i]!) as { level?: number; msg?: string; err?: unknown };
      if ((entry.level ?? 0) >= 40) return `${entry.msg ?? ''}${entry.err === undefined ? '' : `: ${typeof entry.err === 'string' ? entry.err : JSON.stringify(entry.err)}`}`;
    } catch {
      return lines[i]!; // not JSON (a pretty log, a stack trace): the last line as it is
    }
  }
  return null;
}

/**
 * Starts a daemon and waits until /ready answers 200 (or it exits, which throws with its log). On timeout it is
 * SIGKILLed, not left running, and the error carries its last failure and the daemon (its log) for the caller to keep.
 */
export async function startDaemon(args: string[], timeoutMs = 90_000, env: NodeJS.ProcessEnv = {}): Promise<Daemon> {
  const daemon = await spawnDaemon(args, env);
  let gone = false;
  void daemon.exited.then(() => (gone = true));
  try {
    await waitFor(async () => {
      if (gone) throw new Error(`perfpipe ${args[0]} exited during start-up:\n${daemon.log()}`);
      return (await httpGet(`${daemon.url}/ready`)).status === 200;
    }, `perfpipe ${args[0]} to be ready`, timeoutMs);
  } catch (error) {
    if (gone) throw error;
    await daemon.stop('SIGKILL');
    throw new DaemonStartTimeout(daemon, `${(error as Error).message}; its last failure: ${lastFailure(daemon.log()) ?? '(nothing logged)'}`);
  }
  return daemon;
}

/** Runs SQL through the sink that holds `data` (its daemon.json names its port and token); JSONEachRow rows. */
export async function sinkQuery<T = Record<string, unknown>>(data: string, query: string): Promise<T[]> {
  const daemon = JSON.parse(readFileSync(join(data, 'daemon.json'), 'utf8')) as { url: string; token: string };
  const res = await fetch(`${daemon.url}/sql?format=json`, {
    method: 'POST', body: query, headers: { authorization: `Bearer ${daemon.token}` }, signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`sink /sql answered ${res.status}: ${text}`);
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);
}

export interface Stored {
  count: number;
  unique: number;
}

/** `count()` and `uniqExact(file_key, file_offset)` of tj_events in one sink's store. */
export async function storedIn(data: string): Promise<Stored> {
  const [row] = await sinkQuery<{ c: string; u: string }>(data, 'SELECT count() AS c, uniqExact(file_key, file_offset) AS u FROM tj_events');
  return { count: Number(row?.c ?? 0), unique: Number(row?.u ?? 0) };
}
