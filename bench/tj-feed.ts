// One generated TJ file through a fresh parser, 1 MiB per read as the tailer reads: the loop the parse and the
// engine-ceiling benches share.
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { createTjParser } from '../parsers/tj/index.js';
import type { ParseOutput } from '../parsers/parser.js';
import type { TjEvent } from '../schemas/tj-event.js';
import type { GeneratedTj } from './generate-tj.js';

export const CHUNK = 1 << 20;

/** Calls `onOutput` with what each push (and the final finish) returned; `onParseNs` gets the time spent inside them. */
export function feedTjFile(
  input: GeneratedTj,
  file: GeneratedTj['files'][number],
  onOutput: (out: ParseOutput<TjEvent>) => void,
  onParseNs: (ns: bigint) => void = () => {},
): void {
  const path = join(input.dir, file.path);
  const parser = createTjParser({ host: 'bench', source: 'tj', file: path, file_key: file.path, offset: 0, hour: file.hour, tz: input.time_zone });
  const fd = openSync(path, 'r');
  try {
    for (let position = 0; ; ) {
      // A fresh buffer per read: the tailer hands each chunk over and never reuses it (docs/architecture.md §1 Source).
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, position);
      const t0 = process.hrtime.bigint();
      const out = n === 0 ? parser.finish() : parser.push(n === CHUNK ? buf : buf.subarray(0, n));
      onParseNs(process.hrtime.bigint() - t0);
      onOutput(out);
      if (n === 0) break;
      position += n;
    }
  } finally {
    closeSync(fd);
  }
}
