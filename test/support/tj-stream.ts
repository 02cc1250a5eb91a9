// A TJ directory that keeps growing, for distributed and chaos runs: appends the generator's records to
// `<dir>/rphost_<pid>/<yymmddhh>.log` in batches and counts what it wrote (the ground truth).
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tjRecords, type TjGeneratorOptions, type TjSimRecord } from '../../simulate/tj-generator.js';
import { tjProcessFolder } from '../../simulate/tj-layout.js';
import { formatTjEvent, UTF8_BOM } from '../../simulate/tj-writer.js';

export class TjStream {
  readonly #records: Generator<TjSimRecord>;
  readonly #known = new Set<string>();
  /** Events appended so far: every one ends with a line feed, so every one is a complete event on disk. */
  written = 0;
  bytes = 0;

  constructor(readonly dir: string, options: Partial<TjGeneratorOptions> = {}) {
    this.#records = tjRecords({ seed: 7, start: new Date('2026-03-02T07:00:00Z'), durationMs: 30 * 24 * 3_600_000, ...options });
  }

  /** Appends up to `n` more events, one write per file touched; returns how many. */
  append(n: number): number {
    const texts = new Map<string, string>();
    let count = 0;
    for (; count < n; count++) {
      const next = this.#records.next();
      if (next.done) break;
      const { process, clock, event } = next.value;
      const path = join(this.dir, tjProcessFolder(process.name, process.pid), `${clock.hour}.log`);
      let text = texts.get(path) ?? '';
      if (!this.#known.has(path)) {
        this.#known.add(path);
        mkdirSync(dirname(path), { recursive: true });
        text += UTF8_BOM;
      }
      texts.set(path, text + formatTjEvent({ ...clock, duration_us: event.duration_us, name: event.name, depth: event.depth, props: event.props }));
    }
    for (const [path, text] of texts) {
      appendFileSync(path, text);
      this.bytes += Buffer.byteLength(text);
    }
    this.written += count;
    return count;
  }

  get files(): string[] {
    return [...this.#known];
  }
}
