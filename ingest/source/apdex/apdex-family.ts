// 1C performance-evaluation (APDEX) exports as a source family (ingest/families/registry.ts): an `apdex` config entry
// → its file source.
import { createFileSource, type FileSource } from '../file-source.js';
import type { SourceContext } from '../source-context.js';
import type { ApdexSourceConfig } from './apdex-source-config.js';
import { apdexSourceParts } from './apdex-source.js';

export function createSource(s: ApdexSourceConfig, ctx: SourceContext): FileSource {
  return createFileSource({
    source: s.type, family: 'apdex', host: ctx.host, checkpointDir: ctx.checkpointDir, publish: ctx.publish, events: ctx.events, mode: ctx.mode,
    ...apdexSourceParts({ location: s.location, pattern: s.pattern, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host, ctx.mode),
    ...ctx.read,
  });
}
