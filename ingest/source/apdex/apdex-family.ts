// 1C performance-evaluation (APDEX) exports as a data family (docs/adding-a-family.md): `apdex` entries read the export
// directory; measurements become apdex_measurements rows and the key-operation settings key_operations rows (apdex-rows.ts).
import { ApdexRecordSchema } from '../../../schemas/apdex-measurement.js';
import { APDEX_MEASUREMENTS, KEY_OPERATIONS } from '../../../schemas/apdex-row.js';
import { defineFamily, noFileMatches, sourceKind } from '../family.js';
import { ApdexSourceConfigSchema } from './apdex-source-config.js';
import { createApdexRowBuilder } from './apdex-rows.js';

export const APDEX_FAMILY = defineFamily({
  family: 'apdex',
  events: ApdexRecordSchema,
  tables: [APDEX_MEASUREMENTS, KEY_OPERATIONS],
  rows: createApdexRowBuilder,
  retention: {
    // key_operations holds settings, one version per name: it is never expired.
    key: 'apdex_days', days: 400, tables: ['apdex_measurements'], rollups: ['apdex_minute'],
    about: 'Days apdex_measurements keeps a measurement (small next to the journal). Default 400.',
  },
  sources: [sourceKind({
    schema: ApdexSourceConfigSchema,
    load: () => import('./apdex-source.js'),
    unmatched: (s, seen) => noFileMatches(s.pattern, seen),
  })],
});
