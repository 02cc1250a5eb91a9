// What a test needs from the machine (a program, PostgreSQL, a locale, the shared corpus, a tmpfs mount), looked up
// the way scripts/test-env.sh installs it, and what a test does when it is missing: locally it is registered as
// skipped, with the reason in its title, so ava counts and lists it; under CI=true it is registered as a test that
// fails and names what is missing. A green CI run therefore means every test ran (issue 15: about 17 tests used
// to pass with only a log line, and a missing corpus silently created none of its ~120 tests).
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { packageRoot } from '../../ingest/store/package-root.js';

/** CI=true (or 1/yes), as GitHub Actions and most CI services set it. */
export const CI = /^(true|1|yes)$/i.test(process.env.CI ?? '');

type Implementation = (t: ExecutionContext) => PromiseLike<void> | void;
export type Register = (title: string, implementation: Implementation) => void;

/**
 * `test` (or `test.serial`) when `missing` is null. Otherwise, locally, a skipped test whose title says what is
 * missing; under CI, a failing one.
 */
export function testIf(missing: string | null, options: { serial?: boolean } = {}): Register {
  const base = options.serial ? test.serial : test;
  if (missing === null) return base;
  if (CI) {
    return (title) => base(title, (t) => {
      t.fail(`missing prerequisite: ${missing} (under CI=true this fails the run; scripts/test-env.sh installs it as root)`);
    });
  }
  return (title, implementation) => base.skip(`${title} [skipped: ${missing}]`, implementation);
}

/** The full path of `program` on PATH (what `command -v` finds), or null. */
export function onPath(program: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch { /* not here */ }
  }
  return null;
}

/** Why the programs cannot be run (the ones not on PATH), or null when all are there. */
export function missingPrograms(...programs: string[]): string | null {
  const absent = programs.filter((p) => onPath(p) === null);
  return absent.length === 0 ? null : `${absent.join(', ')} not on PATH`;
}

/** Directory of the newest installed PostgreSQL's binaries (Debian keeps them off PATH), or null. */
export function pgBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

export function missingPostgres(): string | null {
  return pgBinDir() === null ? 'no PostgreSQL under /usr/lib/postgresql/*/bin' : null;
}

/** `ru_RU.UTF-8` as `locale -a` lists it (`ru_RU.utf8`), or why not. */
export function missingLocale(name: string): string | null {
  const wanted = name.replace(/\.utf-?8$/i, '.utf8');
  let listed: string[] = [];
  try {
    listed = execFileSync('locale', ['-a'], { encoding: 'utf8' }).split('\n');
  } catch { /* no locale program: nothing listed */ }
  return listed.includes(wanted) ? null : `no ${name} locale (locale -a)`;
}

/** The shared corpus beside the clone (../shared/corpus); CI has it. */
export const corpusDir = join(packageRoot(), '..', 'shared', 'corpus');

/** Why `../shared/corpus/<sub>` cannot be read, or null. */
export function missingCorpus(sub = ''): string | null {
  return existsSync(join(corpusDir, sub)) ? null : `no ${join('../shared/corpus', sub)} beside the clone`;
}

/** Whether this process can mount a small tmpfs (root, and a kernel and container that allow it), or why not. */
export function missingTmpfsMount(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `mount -t tmpfs failed: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first reason among several, or null when none is missing. */
export function firstMissing(...reasons: Array<string | null>): string | null {
  return reasons.find((r) => r !== null) ?? null;
}
