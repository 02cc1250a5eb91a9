// Runs the perfpipe CLI from source (through tsx) as a child process, as a user would run it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../ingest/store/package-root.js';
import { owned } from './owned-children.js';

export const repoRoot = packageRoot();
/**
 * How a child process runs the CLI: the compiled entry with the node flags of bin/perfpipe.js, as a user runs it,
 * when this module itself runs compiled (the benches) or under `npm test`, whose pretest has just built dist/ and
 * which sets PERFPIPE_TEST_CLI=dist. Compiling through tsx costs each process about 0.4 CPU s more (0.88–1.08 against
 * 0.46–0.58 user s for `sql 'SELECT 1'`), and the suite starts a thousand of them. A single file run with `npx ava`
 * runs the sources, so an edit needs no build.
 */
export const cliArgs: readonly string[] = fileURLToPath(import.meta.url).endsWith('.js') || process.env.PERFPIPE_TEST_CLI === 'dist'
  ? [...binNodeFlags(), join(repoRoot, 'dist', 'cli', 'entry.js')]
  : ['--import', 'tsx', join(repoRoot, 'cli', 'entry.ts')];

/** The node flags on bin/perfpipe.js's shebang line. */
function binNodeFlags(): string[] {
  const shebang = readFileSync(join(repoRoot, 'bin', 'perfpipe.js'), 'utf8').split('\n')[0] ?? '';
  return shebang.split(/\s+/).filter((w) => w.startsWith('--'));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return owned(spawn(process.execPath, [...cliArgs, ...args], {
    cwd: repoRoot, env: { ...process.env, PERFPIPE_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  }));
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character whose bytes two chunks share is one character, not two U+FFFD.
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (d: string) => { stdout += d; });
  child.stderr?.on('data', (d: string) => { stderr += d; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
