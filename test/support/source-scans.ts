// A following file source's scans, counted: every scan begins with one call of its `discover`, and scans run one
// after another (file-source.ts `kick`). A test that must show that nothing more arrives — no second read, no
// event of a half-written record — waits until the source has scanned again since, which proves it looked at the
// files as they are now; a fixed pause proves nothing when the machine is slow.
type Discover = () => Promise<string[]>;

export interface ScanCounter {
  /** Scans begun so far. */
  readonly count: number;
  /** The source's `discover`, counting each call. */
  counting(discover: Discover): Discover;
  /**
   * Resolves once `scans` scans that began after this call have run to their end: the one after them has begun.
   * Every file as it is at the call has then been listed, opened or recognised, and read to its end that many times.
   */
  scanned(scans?: number, timeoutMs?: number): Promise<void>;
}

export function scanCounter(onScan: (count: number) => void = () => {}): ScanCounter {
  let count = 0;
  const waiting = new Set<{ at: number; resolve: () => void }>();
  return {
    get count() { return count; },
    counting: (discover) => () => {
      count += 1;
      onScan(count);
      for (const w of waiting) if (count >= w.at) { waiting.delete(w); w.resolve(); }
      return discover();
    },
    scanned(scans = 2, timeoutMs = 15_000) {
      return new Promise<void>((resolve, reject) => {
        const w = { at: count + scans + 1, resolve: () => { clearTimeout(timer); resolve(); } };
        const timer = setTimeout(() => {
          waiting.delete(w);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${scans} more scans of the source (${count} so far)`));
        }, timeoutMs);
        waiting.add(w);
      });
    },
  };
}
