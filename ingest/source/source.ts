// What the pipeline holds of every source, whatever it reads (files, a program's output, a live server), and the one
// lifecycle they share: started once, stopped once (safe before start and twice, docs/style.md §3), done when a
// backfill has read everything or once the source stopped. Each source says only how it reads and what a stop takes.

export interface Source {
  start(): Promise<void>;
  /** Backfill: resolves when everything was read and acknowledged. Follow: once stopped. */
  done(): Promise<void>;
  /** Bytes of the input found so far (for progress and ETA); 0 for a source that reads no files. */
  readonly totalBytes: number;
  /** Stops reading; resolves once what the source holds open is closed. */
  stop(): Promise<void>;
}

/** How one source reads, for the lifecycle to drive. */
export interface SourceWork {
  /**
   * Sets reading going and returns at once: the promise of reading everything once (a backfill; the source is done
   * when it settles, and it never rejects: failures go to the source's events), or null for reading until stopped.
   */
  begin(): Promise<void> | null;
  /** What a stop takes once `stopping` has aborted: wait for the reading in flight, close what is open. */
  end(): Promise<void>;
  totalBytes?(): number;
}

/**
 * The source that runs `work`. `stopping` is the source's own: it aborts as a stop begins, before `end`, so loops
 * and waits that watch it (file scans, publish retries, a sampler's sleep) give up at once.
 */
export function runSource(stopping: AbortController, work: SourceWork): Source {
  let started = false;
  let stopped: Promise<void> | null = null;
  let markDone: () => void = () => {};
  const done = new Promise<void>((resolve) => { markDone = resolve; });
  return {
    get totalBytes() { return work.totalBytes?.() ?? 0; },
    async start() {
      if (started || stopped !== null) return;
      started = true;
      void work.begin()?.finally(markDone);
    },
    done: () => done,
    stop() {
      if (stopped === null) {
        stopping.abort();
        stopped = work.end().finally(markDone);
      }
      return stopped;
    },
  };
}
