// atop as a data family (docs/adding-a-family.md), three ways in: `atop` reads atop -P text files, `atop_raw` converts
// atop's own daily files, `atop_spawn` runs atop itself. Every sample becomes rows of the five atop tables (atop-rows.ts).
import { AtopRecordSchema } from '../../../schemas/atop-record.js';
import { ATOP_CPU, ATOP_DISKS, ATOP_INTERFACES, ATOP_SYSTEM, ATOP_TOP_PROCESSES } from '../../../schemas/atop-row.js';
import { defineFamily, noFileMatches, sourceKind } from '../family.js';
import { AtopSourceConfigSchema } from './atop-source-config.js';
import { AtopRawSourceConfigSchema } from './atop-raw-source-config.js';
import { AtopSpawnSourceConfigSchema } from './atop-spawn-source-config.js';
import { createAtopRowBuilder } from './atop-rows.js';

export const ATOP_FAMILY = defineFamily({
  family: 'atop',
  events: AtopRecordSchema,
  tables: [ATOP_SYSTEM, ATOP_CPU, ATOP_DISKS, ATOP_INTERFACES, ATOP_TOP_PROCESSES],
  rows: createAtopRowBuilder,
  retention: { key: 'atop_days', days: 30, rollups: ['atop_minute'], about: 'Days the atop tables keep a sample. Default 30.' },
  sources: [
    sourceKind({
      schema: AtopSourceConfigSchema,
      load: () => import('./atop-source.js'),
      unmatched: (s, seen) => noFileMatches(s.pattern, seen),
    }),
    // These two find their own input: atop reads the raw logs it is given, or samples this host.
    sourceKind({ schema: AtopRawSourceConfigSchema, load: () => import('./atop-raw-source.js') }),
    sourceKind({ schema: AtopSpawnSourceConfigSchema, load: () => import('./atop-spawn-source.js') }),
  ],
});
