// How wide one point of a time chart is, chosen from the window: a 20 s run drawn in one-minute buckets is a single
// point (issue #15 item 4), so a short window gets the widest bucket that still gives at least ten points.
// Buckets divide a minute, so they tile the minutes the report SQL counts (every minute overlapping the window) and
// the points of a chart add up to the window's tables; a window of ten minutes or more keeps one-minute buckets,
// read from the minute rollups as before.

/** Seconds; each divides 60. */
export const BUCKETS_S = [1, 2, 5, 10, 15, 30, 60] as const;
export const MINUTE_S = 60;
/** Points a chart of a short window has at least (the window allowing: below 10 s, 1 s buckets). */
export const MIN_POINTS = 10;

/** The bucket (s) of a window of `span` seconds: the largest of BUCKETS_S giving ≥ MIN_POINTS points, at most a minute. */
export function chartBucket(span: number): number {
  let chosen: number = BUCKETS_S[0];
  for (const b of BUCKETS_S) if (span / b >= MIN_POINTS) chosen = b;
  return chosen;
}

/**
 * The bucket of a chart whose samples come every `interval` seconds (atop): never finer than the samples, so no
 * bucket is drawn that no sample can fill; then it may have fewer than MIN_POINTS points, and the chart says so.
 */
export function sampledBucket(bucket: number, interval: number): number {
  return BUCKETS_S.find((b) => b >= bucket && b >= interval) ?? MINUTE_S;
}

/** How a title names one bucket: `minute`, `10 s`. */
export function bucketName(bucket: number): string {
  return bucket === MINUTE_S ? 'minute' : bucket % MINUTE_S === 0 ? `${bucket / MINUTE_S} min` : `${bucket} s`;
}
