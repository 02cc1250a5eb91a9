// Writing lines to stdout/stderr in 64 KiB batches with backpressure, so `parse` piped into a slow
// reader stays bounded and a fast one is not slowed by one write call per event.
import { once } from 'node:events';
import type { Writable } from 'node:stream';

export class LineWriter {
  private lines: string[] = [];
  private size = 0;

  constructor(private readonly stream: Writable) {}

  async line(text: string): Promise<void> {
    this.lines.push(text);
    this.size += text.length;
    if (this.size >= 64 * 1024) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.lines.length === 0) return;
    const ok = this.stream.write(`${this.lines.join('\n')}\n`);
    this.lines = [];
    this.size = 0;
    if (!ok) await once(this.stream, 'drain');
  }
}
