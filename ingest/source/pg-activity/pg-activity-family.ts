// PostgreSQL's live waits (pg_stat_activity, pg_wait_sampling) as a data family (docs/adding-a-family.md): a
// `pg_activity` entry samples a server instead of reading a file; each sample becomes pg_activity and pg_wait_samples
// rows (pg-activity-rows.ts).
import { PgActivitySampleSchema } from '../../../schemas/pg-activity-sample.js';
import { PG_ACTIVITY, PG_WAIT_SAMPLES } from '../../../schemas/pg-activity-row.js';
import { defineFamily, sourceKind } from '../family.js';
import { PgActivitySourceConfigSchema } from './config.js';
import { createPgActivityRowBuilder } from './pg-activity-rows.js';

export const PG_ACTIVITY_FAMILY = defineFamily({
  family: 'pg_activity',
  events: PgActivitySampleSchema,
  tables: [PG_ACTIVITY, PG_WAIT_SAMPLES],
  rows: createPgActivityRowBuilder,
  retention: {
    // pg_blocked_minute, pg_blocked_sides: the blocked episodes and their sides (docs/write-path.md §11).
    key: 'pg_activity_days', days: 30, rollups: ['pg_wait_minute', 'pg_blocked_minute', 'pg_blocked_sides'],
    about: 'Days pg_activity and pg_wait_samples keep a sample of PostgreSQL\'s backends (the `pg_activity` source). Default 30.',
  },
  // Its location is the server's URL, and the server is all it reads.
  sources: [sourceKind({ schema: PgActivitySourceConfigSchema, load: () => import('./pg-activity-source.js'), locationIsPath: false })],
});
