// The real Prometheus tools for tests (Debian's `prometheus`, `promtool`, `prometheus-alertmanager`, installed by
// scripts/test-env.sh): an Alertmanager and a Prometheus server each on a free loopback port with a throwaway
// config and storage, and `promtool check metrics` over a page's text. They are the oracles for what perfpipe
// sends and serves: what the real server accepts, shows and scrapes, not our own reading of the format.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, httpGet, waitFor } from './daemon.js';
import { owned } from './owned-children.js';
import { missingPrograms } from './prerequisites.js';

export const MISSING_ALERTMANAGER = missingPrograms('prometheus-alertmanager');
export const MISSING_PROMETHEUS = missingPrograms('prometheus', 'promtool');

interface Server {
  url: string;
  /** What the process wrote to stderr so far (its log). */
  log(): string;
  close(): Promise<void>;
}

/** Spawns `program` with `args(port)` on a free port and waits for `<url>/-/ready`; the temp dir goes on close. */
async function startServer(program: string, dir: string, args: (port: number) => string[]): Promise<Server> {
  const port = await freePort();
  const child: ChildProcess = owned(spawn(program, args(port), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] }));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-50_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    if (!gone) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      if (gone) throw new Error(`${program} exited during start-up:\n${stderr}`);
      return (await httpGet(`${url}/-/ready`)).status === 200;
    }, `${program} to be ready`, 30_000, 100);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, log: () => stderr, close };
}

/** One alert as Alertmanager's API v2 lists it (`GET /api/v2/alerts`, gettableAlert). */
export interface GettableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  updatedAt: string;
  fingerprint: string;
  status: { state: 'unprocessed' | 'active' | 'suppressed'; silencedBy: string[]; inhibitedBy: string[] };
}

export interface Alertmanager extends Server {
  /** The alerts Alertmanager holds as not yet resolved (it leaves out alerts whose endsAt has passed). */
  alerts(): Promise<GettableAlert[]>;
  /** Sum of a sample of Alertmanager's own /metrics over the series whose labels include `labels`. */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
}

/**
 * Alertmanager 0.25 with one route to a receiver that notifies nobody: the tests read what it received through
 * its API, not through a notification. No HA cluster (`--cluster.listen-address=`), so no gossip port is taken.
 */
export async function startAlertmanager(): Promise<Alertmanager> {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-alertmanager-'));
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(config, 'route:\n  receiver: nobody\nreceivers:\n  - name: nobody\n');
  const server = await startServer('prometheus-alertmanager', dir, (port) => [
    `--config.file=${config}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=',
  ]);
  return {
    ...server,
    async alerts() {
      const res = await fetch(`${server.url}/api/v2/alerts`, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`GET /api/v2/alerts answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as GettableAlert[];
    },
    async metric(name, labels = {}) {
      return sampleSum((await httpGet(`${server.url}/metrics`)).text, name, labels);
    },
  };
}

/** The value of one series of a Prometheus query result (`GET /api/v1/query`), by its labels. */
export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface Prometheus extends Server {
  /** An instant query through the HTTP API; throws unless the answer is a vector. */
  query(expr: string): Promise<Sample[]>;
}

/**
 * Prometheus 2.42 scraping `targets` (host:port) every second as job `perfpipe`, with its TSDB in a temp dir.
 * Only the HTTP API is used; the web UI's assets are not needed.
 */
export async function startPrometheus(targets: string[]): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, [
    'global: { scrape_interval: 1s, scrape_timeout: 1s }',
    'scrape_configs:',
    '  - job_name: perfpipe',
    `    static_configs: [{ targets: ${JSON.stringify(targets)} }]`,
    '',
  ].join('\n'));
  const server = await startServer('prometheus', dir, (port) => [
    `--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`,
  ]);
  return {
    ...server,
    async query(expr) {
      const res = await fetch(`${server.url}/api/v1/query?query=${encodeURIComponent(expr)}`, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json()) as { status: string; error?: string; data?: { resultType: string; result: Sample[] } };
      if (body.status !== 'success' || body.data?.resultType !== 'vector') throw new Error(`query ${expr}: ${JSON.stringify(body)}`);
      return body.data.result;
    },
  };
}

/** `promtool check metrics` over `text`: its exit code and what it printed (lint problems, one per line). */
export function promtoolCheck(text: string): { code: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  if (run.error) throw run.error;
  return { code: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

/**
 * Sum of the samples of `name` in a text exposition whose labels include `labels`. Only for reading
 * Alertmanager's own page, whose format is not under test.
 */
function sampleSum(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = new Map([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) sum += Number(m[3]);
  }
  return sum;
}
