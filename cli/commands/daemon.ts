// What the long-running commands (`agent`, `sink`) share: SIGTERM/SIGINT as an AbortSignal, so a
// daemon still waiting for Kafka or ClickHouse at start-up stops as promptly as a running one.

export interface StopSignal {
  signal: AbortSignal;
  /** Resolves on the first SIGTERM or SIGINT. */
  requested: Promise<void>;
}

export function stopOnSignals(): StopSignal {
  const abort = new AbortController();
  const requested = new Promise<void>((resolve) => {
    const stop = (): void => {
      abort.abort();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return { signal: abort.signal, requested };
}
