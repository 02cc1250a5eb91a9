// Appends text to the files a load test leaves: buffered per path, written on flush (or when the buffer grows
// large), each TJ file started with the BOM the platform writes (docs/tj-format.md §1).
import { appendFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const FLUSH_CHARS = 4 << 20;

export interface FileAppender {
  append(path: string, text: string): void;
  flush(): void;
  /** Files written, with their sizes once flushed. */
  sizes(): Map<string, number>;
}

export function createFileAppender(startText: (path: string) => string = () => ''): FileAppender {
  const pending = new Map<string, string>();
  const known = new Set<string>();
  let buffered = 0;
  const self: FileAppender = {
    append(path, text) {
      let head = '';
      if (!known.has(path)) {
        known.add(path);
        if (!existsSync(path)) {
          mkdirSync(dirname(path), { recursive: true });
          head = startText(path);
        }
      }
      pending.set(path, (pending.get(path) ?? '') + head + text);
      buffered += text.length;
      if (buffered >= FLUSH_CHARS) self.flush();
    },
    flush() {
      for (const [path, text] of pending) appendFileSync(path, text);
      pending.clear();
      buffered = 0;
    },
    sizes() {
      return new Map([...known].map((p) => [p, existsSync(p) ? statSync(p).size : 0]));
    },
  };
  return self;
}
