// Hands a segment of an atop source that reads no file of its own (`atop_raw`, `atop_spawn`) to the bus until the
// bus acknowledges it, retrying a failed publish with capped exponential backoff (file-tail.ts does the same for
// file sources). Only a stopping source gives up; a recorded intent then replays the segment after a restart.
import type { Segment } from '../bus/bus.js';
import type { SourceEvents } from './source-events.js';

/** Resolves true once acknowledged; false when `signal` aborted before that. */
export async function publishUntilAcked(
  publish: (segment: Segment) => Promise<void>, segment: Segment, events: SourceEvents, signal: AbortSignal, bytes: number,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await publish(segment);
      events.segmentPublished(segment.file, segment.records, segment.errors.length, bytes);
      return true;
    } catch (error) {
      events.publishFailed(segment.file, error as Error, attempt);
      if (signal.aborted) return false;
      await sleep(Math.min(30_000, 200 * 2 ** Math.min(attempt, 8)), signal);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) { resolve(); return; }
    const done = (): void => { clearTimeout(timer); signal.removeEventListener('abort', done); resolve(); };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
