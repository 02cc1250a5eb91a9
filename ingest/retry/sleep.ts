// The one wait of perfpipe's own code: Node's timers/promises, and with a signal a wait that a stop cuts short (it
// resolves then, so a stopping loop does not wait out a backoff and needs no try/catch around its pause).
import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return delay(ms);
  if (signal.aborted) return Promise.resolve();
  return delay(ms, undefined, { signal }).catch(() => {});
}

/** Waits for `work`, but at most `ms` (a stop's grace period); `work` failing fails the wait, as it would unbounded. */
export async function waitAtMost(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  const grace = new AbortController();
  try {
    await Promise.race([work, delay(ms, undefined, { signal: grace.signal }).catch(() => {})]);
  } finally {
    grace.abort(); // the timer of a wait that `work` ended first
  }
}
