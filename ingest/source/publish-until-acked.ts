// Hands a segment to the bus until the bus acknowledges it, retrying a failed publish with capped exponential backoff:
// the one retry loop of every source (file tails, `atop_raw`, `atop_spawn`, `pg_activity`). Only a stopping source
// gives up; a recorded intent then replays the segment after a restart.
import type { Segment } from '../bus/bus.js';
import type { SourceEvents } from './source-events.js';
import { sleep } from '../retry/sleep.js';
import { backoffMs } from '../retry/backoff.js';

/** Resolves true once acknowledged; false when `signal` aborted before that. `file` names the source in events. */
export async function publishUntilAcked(
  publish: (segment: Segment) => Promise<void>, segment: Segment, events: SourceEvents, signal: AbortSignal, bytes: number,
  file: string = segment.file,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await publish(segment);
      events.segmentPublished(file, segment.records, segment.errors.length, bytes);
      return true;
    } catch (error) {
      events.publishFailed(file, error as Error, attempt);
      if (signal.aborted) return false; // its intent stays: replayed after restart
      await sleep(backoffMs(attempt, 400, 30_000), signal);
    }
  }
}
