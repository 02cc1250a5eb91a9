// The one backoff of every retry loop (a source's publish, the sink's insert, the store and the broker at start-up,
// atop restarts, alert delivery, the pg_activity sampler): the first pause `initialMs`, doubled on each failure that
// follows, never above `maxMs`.

/** The pause before the retry that follows failure number `failure` (1 for the first). */
export function backoffMs(failure: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(Math.max(failure - 1, 0), 30));
}
