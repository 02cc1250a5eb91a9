// Writes the simulated TJ stream in real time, as the platform would during a run: each event is
// appended to its process's hour file once its end time has passed on the wall clock.
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tjRecords, type TjGeneratorOptions, type TjSimRecord } from './tj-generator.js';
import { tjProcessFolder } from './tj-layout.js';
import { formatTjEvent, UTF8_BOM } from './tj-writer.js';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LiveWriteResult {
  events: number;
  counts: Record<string, number>;
}

/**
 * Appends events as their time comes, in ticks of `tickMs`; `onTick` sees the running totals.
 * Resolves when the span is over or `signal` aborts.
 */
export async function writeTjLive(out: string, options: TjGeneratorOptions & { tickMs?: number; onTick?: (r: LiveWriteResult) => void; onRecord?: (r: TjSimRecord) => void; signal?: AbortSignal }): Promise<LiveWriteResult> {
  const result: LiveWriteResult = { events: 0, counts: {} };
  const startMs = options.start.getTime();
  const pending = new Map<string, string>();
  const flush = (): void => {
    for (const [path, text] of pending) {
      if (!existsSync(path)) {
        mkdirSync(join(path, '..'), { recursive: true });
        appendFileSync(path, UTF8_BOM + text);
      } else {
        appendFileSync(path, text);
      }
    }
    pending.clear();
    options.onTick?.(result);
  };
  for (const record of tjRecords(options)) {
    if (options.signal?.aborted) break;
    const due = startMs + record.at_us / 1000;
    if (due > Date.now()) {
      flush();
      await sleep(Math.max(options.tickMs ?? 100, due - Date.now()));
    }
    const path = join(out, tjProcessFolder(record.process.name, record.process.pid), `${record.clock.hour}.log`);
    const { event, clock } = record;
    pending.set(path, (pending.get(path) ?? '') + formatTjEvent({ ...clock, duration_us: event.duration_us, name: event.name, depth: event.depth, props: event.props }));
    options.onRecord?.(record);
    result.events++;
    result.counts[event.name] = (result.counts[event.name] ?? 0) + 1;
  }
  flush();
  return result;
}
