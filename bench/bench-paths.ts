// Where benches read and write, resolved from the repository root so the same code works from `bench/*.ts` (tsx)
// and from `dist/bench/*.js` (after `tsc`).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder above this module that holds package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

/** Generated inputs (gitignored). */
export const benchWorkDir = (): string => join(repoRoot(), 'bench', 'work');

/** Figures of the last `npm run bench` (gitignored). */
export const benchResultsFile = (): string => join(repoRoot(), 'bench', 'results.json');

/** True when `moduleUrl` is the script node was started with (the module's `main`). */
export function isMain(moduleUrl: string): boolean {
  const started = process.argv[1];
  return started !== undefined && resolve(started) === fileURLToPath(moduleUrl);
}
