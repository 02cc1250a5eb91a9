// Times in expected.json as the reports print them. Its own module: the parts of expected.json (load-runs.ts,
// load-conflicts.ts) format times, and load-expected.ts, which composes their types, imports them.

/** `2026-11-30T09:00:01.123456Z`: tj_events.ts as `report locks` prints it. */
export function isoUs(epochUs: number): string {
  const ms = Math.floor(epochUs / 1000);
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(epochUs % 1_000_000).padStart(6, '0')}Z`;
}
