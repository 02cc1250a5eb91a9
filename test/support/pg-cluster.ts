// A throwaway PostgreSQL cluster for tests: Debian's binaries, initdb into a temp dir, a private port and a unix
// socket in that dir, run as the `postgres` OS user when the test runs as root (initdb refuses root).
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, appendFileSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { stopAtExit } from './owned-children.js';

export { pgBinDir } from './prerequisites.js';

/** A connected client and its backend's pid: what pg_stat_activity, pg_blocking_pids and TJ `dbpid` name it by. */
export async function connectSession(connectionString: string): Promise<{ client: pg.Client; pid: number }> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    return { client, pid: Number((await client.query('SELECT pg_backend_pid() AS p')).rows[0].p) };
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}

export interface PgCluster {
  dir: string;
  port: number;
  /** Runs psql with one `-c` per command in one session; resolves with its output (errors included). */
  psql(commands: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** ALTER SYSTEM for each key, then reload. */
  configure(settings: Record<string, string>): Promise<void>;
  stop(): void;
  /** Starts the stopped server again on the same port (a restart as a DBA does it). */
  start(): void;
}

const isRoot = process.getuid?.() === 0;

function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

export function startPgCluster(bin: string, settings: Record<string, string>): PgCluster {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pg-'));
  chmodSync(dir, 0o755);
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = 20000 + (process.pid % 20000);
  const run = (cmd: string, args: string[]): void => {
    const [c, a] = asPostgres(join(bin, cmd), args);
    execFileSync(c, a, { stdio: 'pipe', timeout: 60_000 });
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const conf = { port: String(port), listen_addresses: "''", unix_socket_directories: `'${dir}'`, fsync: 'off', ...settings };
  appendFileSync(join(data, 'postgresql.conf'), Object.entries(conf).map(([k, v]) => `${k} = ${v}\n`).join(''));
  run('pg_ctl', ['-D', data, '-l', join(dir, 'pg_ctl.log'), '-w', '-t', '60', 'start']);
  stopAtExit(() => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop']));
  const psql = (commands: string[], env: NodeJS.ProcessEnv = {}): Promise<string> => new Promise((resolve) => {
    const args = ['-X', '-q', '-h', dir, '-p', String(port), '-U', env.PGUSER ?? 'postgres', '-d', env.PGDATABASE ?? 'postgres', ...commands.flatMap((c) => ['-c', c])];
    const child = spawn(join(bin, 'psql'), args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('close', () => resolve(out));
  });
  return {
    dir, port, psql,
    async configure(s) {
      await psql([...Object.entries(s).map(([k, v]) => `ALTER SYSTEM SET ${k} = ${v}`), 'SELECT pg_reload_conf()']);
    },
    stop() {
      try { run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']); } catch { /* already down */ }
    },
    start() {
      run('pg_ctl', ['-D', data, '-l', join(dir, 'pg_ctl.log'), '-w', '-t', '60', 'start']);
    },
  };
}

export function removeCluster(c: PgCluster | undefined): void {
  if (c) rmSync(c.dir, { recursive: true, force: true });
}
