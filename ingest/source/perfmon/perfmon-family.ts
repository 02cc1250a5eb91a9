// Windows performance counters exported as CSV, as a data family: the example of docs/adding-a-family.md, kept as a
// test family (test/family-descriptor.test.ts registers it with FAMILIES.with and runs it through the pipeline).
import { defineFamily, noFileMatches, sourceKind } from '../family.js';
import { PERFMON_SAMPLES, PerfmonSampleSchema } from './perfmon-record.js';
import { createPerfmonRowBuilder } from './perfmon-rows.js';
import { PerfmonSourceConfigSchema } from './perfmon-source-config.js';

export const PERFMON_FAMILY = defineFamily({
  family: 'perfmon',
  events: PerfmonSampleSchema,
  tables: [PERFMON_SAMPLES],
  rows: createPerfmonRowBuilder,
  retention: { key: 'perfmon_days', days: 14, about: 'Days perfmon_samples keeps a counter value. Default 14.' },
  sources: [sourceKind({
    schema: PerfmonSourceConfigSchema,
    load: () => import('./perfmon-source.js'),
    unmatched: (s, seen) => noFileMatches(s.pattern, seen),
  })],
});
