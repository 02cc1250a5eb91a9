// The technological journal as a data family (docs/adding-a-family.md): `tj` entries tail 1C's journal files, and
// each event becomes a tj_events row (and each server call a tj_call_splits row), encoded straight from the file's bytes (tj-rows.ts).
import { TjEventSchema } from '../../../schemas/tj-event.js';
import { TJ_EVENTS } from '../../../schemas/tj-row.js';
import { TJ_CALL_SPLITS } from '../../../schemas/tj-call-split-row.js';
import { defineFamily, sourceKind } from '../family.js';
import { MAX_DEPTH, TjSourceConfigSchema } from './tj-source-config.js';
import { createTjRowBuilder } from './tj-rows.js';

export const TJ_FAMILY = defineFamily({
  family: 'tj',
  events: TjEventSchema,
  tables: [TJ_EVENTS, TJ_CALL_SPLITS],
  rows: createTjRowBuilder,
  retention: {
    key: 'tj_days', days: 30, recompress: true,
    // The lock episodes are kept like rollups; the lock resolver's facts go with tj_events (docs/write-path.md §11).
    rollups: ['tj_lock_minute', 'tj_call_minute', 'tj_sql_hour', 'tj_sql_minute', 'tj_sql_context_minute', 'tj_sql_text', 'tj_call_split_minute', 'tj_call_sql_minute', 'tj_call_split_hour', 'tj_call_sql_hour', 'tj_lock_episodes'],
    derived: ['tj_connection_events', 'tj_backend_events'],
    about: 'Days tj_events keeps an event after it was ingested (an old journal read today is kept). 0 keeps it for ever. Default 30.',
  },
  sources: [sourceKind({
    schema: TjSourceConfigSchema,
    load: () => import('./tj-source.js'),
    unmatched: (_s, seen) => `no *.log file in it or in its folders (up to ${MAX_DEPTH} levels down); ${seen}`,
  })],
});
