// PostgreSQL's live waits (pg_stat_activity, pg_wait_sampling) as a source family (ingest/families/registry.ts): it
// samples a server instead of reading a file, so it has no checkpoint and tells its own telemetry (events.ts).
import type { FileSource } from '../file-source.js';
import type { SourceContext } from '../source-context.js';
import type { PgActivitySourceConfig } from './config.js';
import type { PgActivityEvents } from './events.js';
import { createPgActivitySource } from './pg-activity-source.js';

export function createSource(s: PgActivitySourceConfig, ctx: SourceContext & { activity: PgActivityEvents }): FileSource {
  return createPgActivitySource({ config: s, host: ctx.host, mode: ctx.mode, publish: ctx.publish, events: ctx.events, activity: ctx.activity });
}
