// PostgreSQL server logs as a data family (docs/adding-a-family.md): `pg` entries read a log_directory (stderr, csvlog or
// jsonlog), each entry a pg_log row and each lock wait it closes a pg_lock_waits row (pg-rows.ts).
import { PgStreamEventSchema } from '../../../schemas/pg-stream-event.js';
import { PG_LOCK_WAITS, PG_LOG } from '../../../schemas/pg-row.js';
import { defineFamily, sourceKind } from '../family.js';
import { destinationPattern } from './pg-log-files.js';
import { PgSourceConfigSchema } from './pg-source-config.js';
import { createPgRowBuilder } from './pg-rows.js';

export const PG_FAMILY = defineFamily({
  family: 'pg',
  events: PgStreamEventSchema,
  tables: [PG_LOG, PG_LOCK_WAITS],
  rows: createPgRowBuilder,
  // pg_lock_episodes: each lock wait with its 1C sides, kept like rollups (docs/write-path.md §11).
  retention: { key: 'pg_days', days: 30, recompress: true, rollups: ['pg_lock_episodes'], about: 'Days pg_log and pg_lock_waits keep an entry. Default 30.' },
  sources: [sourceKind({
    schema: PgSourceConfigSchema,
    load: () => import('./pg-source.js'),
    unmatched: (s, seen) => `no file matches the log_filename pattern ${JSON.stringify(destinationPattern(s.filename, s.format ?? 'stderr'))}${s.format ? ` (format ${s.format})` : ''}; ${seen}. `
      + 'Give the log file itself as the location, or its name pattern (--pg-filename, or filename: in the config)',
  })],
});
