// atop as a source family (ingest/families/registry.ts), three ways in: `atop` reads atop -P text files, `atop_raw`
// converts atop's own daily files, `atop_spawn` runs atop itself (atop-command-sources.ts).
import { createFileSource, type FileSource } from '../file-source.js';
import type { SourceContext } from '../source-context.js';
import type { AtopSourceConfig } from './atop-source-config.js';
import type { AtopRawSourceConfig } from './atop-raw-source-config.js';
import type { AtopSpawnSourceConfig } from './atop-spawn-source-config.js';
import { atopSourceParts } from './atop-source.js';
import { createAtopCommandSource } from './atop-command-sources.js';

export function createSource(s: AtopSourceConfig | AtopRawSourceConfig | AtopSpawnSourceConfig, ctx: SourceContext): FileSource {
  if (s.type === 'atop_raw' || s.type === 'atop_spawn') {
    return createAtopCommandSource(s, {
      host: ctx.host, mode: ctx.mode, publish: ctx.publish, events: ctx.events, checkpointDir: ctx.checkpointDir,
      pollIntervalMs: ctx.read.pollIntervalMs, segmentBytes: ctx.read.segmentBytes,
    });
  }
  return createFileSource({
    source: s.type, family: 'atop', host: ctx.host, checkpointDir: ctx.checkpointDir, publish: ctx.publish, events: ctx.events, mode: ctx.mode,
    ...atopSourceParts({ location: s.location, pattern: s.pattern, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host),
    ...ctx.read,
  });
}
