// PostgreSQL server logs as a source family (ingest/families/registry.ts): a `pg` config entry → its file source.
import { createFileSource, type FileSource } from '../file-source.js';
import type { SourceContext } from '../source-context.js';
import type { PgSourceConfig } from './pg-source-config.js';
import { pgSourceParts } from './pg-source.js';

export function createSource(s: PgSourceConfig, ctx: SourceContext): FileSource {
  return createFileSource({
    source: s.type, family: 'pg', host: ctx.host, checkpointDir: ctx.checkpointDir, publish: ctx.publish, events: ctx.events, mode: ctx.mode,
    ...pgSourceParts({ ...s, idle_finish_ms: s.idle_finish_s * 1000 }, ctx.host, ctx.mode, {
      prefixMismatch: (path, lines) => ctx.events.prefixMismatch(path, lines, s.prefix ?? ''),
      unframed: (path, d) => ctx.events.pgLogUnframed(path, d),
      disagrees: (path, given, d, givenFramed) => ctx.events.pgPrefixDisagrees(path, given, d, givenFramed),
    }),
    ...ctx.read,
  });
}
