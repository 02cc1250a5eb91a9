// The technological journal as a source family (ingest/families/registry.ts): a `tj` config entry → its file source.
import { createFileSource, type FileSource } from '../file-source.js';
import type { SourceContext } from '../source-context.js';
import type { TjSourceConfig } from './tj-source-config.js';
import { tjSourceParts } from './tj-source.js';
import { tjLocationZone } from './tj-zone.js';

export function createSource(s: TjSourceConfig, ctx: SourceContext): FileSource {
  return createFileSource({
    source: s.type, family: 'tj', host: ctx.host, checkpointDir: ctx.checkpointDir, publish: ctx.publish, events: ctx.events, mode: ctx.mode,
    ...tjSourceParts({ location: s.location, tz: s.tz ?? tjLocationZone(s.location).zone, hour: s.hour, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host),
    ...ctx.read,
  });
}
