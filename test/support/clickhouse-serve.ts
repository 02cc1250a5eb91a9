// `perfpipe serve` (or run/sink with a serve: section) as a child process for the tests of ClickHouse's HTTP
// interface: a config with an analyst (read-only) and a writer, passwords in the environment, a free port, and a
// small client that speaks the interface the way curl would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startDaemon, type Daemon } from './daemon.js';

export const ANALYST = { user: 'analyst', password: 'analyst-pw-7f3a' };
export const WRITER = { user: 'writer', password: 'writer-pw-91c2' };

export const PASSWORD_ENV = { PERFPIPE_TEST_ANALYST_PASSWORD: ANALYST.password, PERFPIPE_TEST_WRITER_PASSWORD: WRITER.password };

/** The serve: section of a test config; `limits` as YAML lines under `limits:`. */
export function serveSection(listen: string, limits: Record<string, number> = {}): string {
  const limitLines = Object.entries(limits).map(([k, v]) => `    ${k}: ${v}\n`).join('');
  return `serve:\n  listen: ${listen}\n  users:\n`
    + '    - { name: analyst, password_env: PERFPIPE_TEST_ANALYST_PASSWORD }\n'
    + '    - { name: writer, password_env: PERFPIPE_TEST_WRITER_PASSWORD, readonly: false }\n'
    + (limitLines ? `  limits:\n${limitLines}` : '');
}

export interface Served {
  daemon: Daemon;
  /** ClickHouse's HTTP interface, e.g. http://127.0.0.1:PORT */
  url: string;
  data: string;
  work: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `perfpipe serve --data <fresh dir>` with the test users and `limits`. */
export async function startServe(limits: Record<string, number> = {}, data?: string): Promise<Served> {
  const work = mkdtempSync(join(tmpdir(), 'perfpipe-serve-'));
  const port = await freePort();
  const config = join(work, 'perfpipe.yaml');
  writeFileSync(config, serveSection(`127.0.0.1:${port}`, limits));
  const dir = data ?? join(work, 'data');
  const daemon = await startDaemon(['serve', '--data', dir, '--config', config], 90_000, PASSWORD_ENV);
  return {
    daemon, url: `http://127.0.0.1:${port}`, data: dir, work,
    async stop(signal = 'SIGTERM') {
      await daemon.stop(signal);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** One request as curl would send it: basic auth, the query in the URL (`?query=`) or the body. */
export async function ask(url: string, o: { user?: { user: string; password: string } | null; query?: string; body?: string | Buffer; params?: Record<string, string>; method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const u = new URL(url);
  if (o.query !== undefined) u.searchParams.set('query', o.query);
  for (const [k, v] of Object.entries(o.params ?? {})) u.searchParams.set(k, v);
  const headers: Record<string, string> = { ...o.headers };
  const who = o.user === undefined ? ANALYST : o.user;
  if (who) headers.authorization = `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}`;
  const res = await fetch(u, { method: o.method ?? (o.body === undefined ? 'GET' : 'POST'), headers, body: o.body, signal: AbortSignal.timeout(60_000) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
