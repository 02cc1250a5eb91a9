// The atop sources that run atop themselves, built from their config entries: `atop_raw` (replays raw logs with
// `atop -r`) and `atop_spawn` (runs `atop -P` live). Both publish atop-family segments like the text source.
import type { Segment } from '../../bus/bus.js';
import type { FileSource } from '../file-source.js';
import type { SourceEvents } from '../source-events.js';
import type { AtopRawSourceConfig } from './atop-raw-source-config.js';
import type { AtopSpawnSourceConfig } from './atop-spawn-source-config.js';
import { createAtopRawSource } from './atop-raw-source.js';
import { createAtopSpawnSource } from './atop-spawn-source.js';

export interface AtopCommandSourceContext {
  host: string;
  mode: 'follow' | 'backfill';
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  /** Where `atop_raw` keeps its checkpoints (one directory per source). */
  checkpointDir: string;
  pollIntervalMs: number;
  segmentBytes: number;
}

export function createAtopCommandSource(s: AtopRawSourceConfig | AtopSpawnSourceConfig, ctx: AtopCommandSourceContext): FileSource {
  if (s.type === 'atop_raw') {
    return createAtopRawSource({
      location: s.location, pattern: s.pattern, command: s.command, labels: s.labels, host: ctx.host, source: s.type,
      checkpointDir: ctx.checkpointDir, publish: ctx.publish, events: ctx.events, mode: ctx.mode,
      pollIntervalMs: ctx.pollIntervalMs, segmentBytes: ctx.segmentBytes,
    });
  }
  return createAtopSpawnSource({
    command: s.location, interval_s: s.interval_s, labels: s.labels, restart_backoff_max_s: s.restart_backoff_max_s,
    host: ctx.host, source: s.type, publish: ctx.publish, events: ctx.events, mode: ctx.mode,
  });
}
