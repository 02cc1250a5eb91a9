// Finds files shipped with perfpipe (queries/, package.json) from compiled (dist/…) and source runs alike.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'queries', 'ddl'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('perfpipe: cannot find its queries/ddl folder above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  root = dir;
  return dir;
}
