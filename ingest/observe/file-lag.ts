// Lag per source file for /metrics: bytes on disk not yet acknowledged downstream (by Kafka for an agent,
// by ClickHouse for the embedded default), tracked from the source's own calls (docs/style.md §3), no peeking inside.
import { stat } from 'node:fs/promises';
import type { SourceEvents } from '../source/source-events.js';

interface Tracked {
  fileKey: string;
  acked: number;
  lag: number;
}

/**
 * `acked` = the offset a file was opened at (its checkpoint) plus the bytes of every segment acknowledged
 * since. A replayed range counts again, so right after a restart the figure can run a little low until the
 * replay is through: not a perfect signal, but it never hides bytes that are still waiting.
 */
export class FileLag {
  readonly #files = new Map<string, Tracked>();

  /** The same events, with file-lag bookkeeping in front of each call it needs. */
  wrap(inner: SourceEvents): SourceEvents {
    return {
      ...inner,
      fileAdded: (path, fileKey, offset) => { this.#files.set(path, { fileKey, acked: offset, lag: 0 }); inner.fileAdded(path, fileKey, offset); },
      fileRotated: (oldPath, newPath, fileKey) => {
        const t = this.#files.get(oldPath);
        if (t) { this.#files.delete(oldPath); this.#files.set(newPath, t); }
        inner.fileRotated(oldPath, newPath, fileKey);
      },
      fileFinished: (path, fileKey, offset) => { this.#files.delete(path); inner.fileFinished(path, fileKey, offset); },
      fileDeleted: (path, fileKey) => { this.#files.delete(path); inner.fileDeleted(path, fileKey); },
      fileTruncated: (path, fileKey, size, offset) => { this.#files.delete(path); inner.fileTruncated(path, fileKey, size, offset); },
      segmentPublished: (path, events, errors, bytes) => {
        const t = this.#files.get(path);
        if (t) t.acked += bytes;
        inner.segmentPublished(path, events, errors, bytes);
      },
    };
  }

  /** Re-reads file sizes; called on a timer, so /metrics itself stays synchronous. */
  async refresh(): Promise<void> {
    for (const [path, t] of this.#files) {
      try {
        t.lag = Math.max(0, (await stat(path)).size - t.acked);
      } catch {
        t.lag = 0; // gone: the tail reads on from its open handle and reports fileDeleted
      }
    }
  }

  /** Bytes not yet acknowledged, summed over the files followed. */
  get total(): number {
    let sum = 0;
    for (const t of this.#files.values()) sum += t.lag;
    return sum;
  }

  render(): string {
    if (this.#files.size === 0) return '';
    const lines = ['# HELP perfpipe_file_lag_bytes Bytes of a followed file not yet acknowledged downstream', '# TYPE perfpipe_file_lag_bytes gauge'];
    for (const [path, t] of this.#files) lines.push(`perfpipe_file_lag_bytes{file="${escape(path)}",file_key="${escape(t.fileKey)}"} ${t.lag}`);
    return `${lines.join('\n')}\n`;
  }
}

export function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
