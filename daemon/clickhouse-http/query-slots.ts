// At most max_concurrent_queries at once; one more waits up to queue_max_wait_ms for a slot (first come, first
// served), then gets ClickHouse's TOO_MANY_SIMULTANEOUS_QUERIES. A burst of a hundred short queries then queues
// instead of failing, and a hundred long ones cannot take the engine from the ingest.
import { chError } from './errors.js';

export interface QuerySlots {
  acquire(): Promise<() => void>;
  inUse(): number;
}

export function createQuerySlots(max: number, waitMs: number): QuerySlots {
  let used = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next(); else used--;
  };
  return {
    async acquire() {
      if (used < max) { used++; return release; }
      const refused = chError('TOO_MANY_SIMULTANEOUS_QUERIES', `Too many simultaneous queries. Maximum: ${max}`);
      if (waitMs <= 0) throw refused;
      await new Promise<void>((resolve, reject) => {
        const go = (): void => { clearTimeout(timer); resolve(); };
        const timer = setTimeout(() => {
          const i = waiting.indexOf(go);
          if (i >= 0) waiting.splice(i, 1);
          reject(refused);
        }, waitMs);
        waiting.push(go);
      });
      return release;
    },
    inUse: () => used,
  };
}
