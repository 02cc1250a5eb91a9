// The field tables against the version matrix of docs/atop-format.md §6 (counted on real output of each
// atop version): a line's field count must pick the layout of exactly the versions that print it.
import test from 'ava';
import { ATOP_VERSIONS, type FieldTable, pickLayout } from '../parsers/atop/labels/layout.js';
import { CPL_TABLE, CPU_CORE_TABLE, CPU_TABLE, LLC_TABLE, NUC_TABLE } from '../parsers/atop/labels/cpu.js';
import { MEM_TABLE, NUM_TABLE, PAG_TABLE, PSI_TABLE, SWP_TABLE } from '../parsers/atop/labels/memory.js';
import { DSK_TABLE, LVM_TABLE, MDD_TABLE, NFC_TABLE, NFM_TABLE, NFS_TABLE } from '../parsers/atop/labels/disk.js';
import { IFB_TABLE, NET_INTERFACE_TABLE, NET_UPPER_TABLE } from '../parsers/atop/labels/network.js';
import { GPU_TABLE } from '../parsers/atop/labels/gpu.js';
import { CGR_CGROUP_TABLE } from '../parsers/atop/labels/cgroup.js';
import { PRC_TABLE, PRD_TABLE, PRE_TABLE, PRG_TABLE, PRM_TABLE, PRN_TABLE } from '../parsers/atop/labels/process.js';

/** Columns: 2.4/2.5 2.6 2.7 2.8 2.9 2.10 2.11 2.12 2.13, 0 = label not printed (docs/atop-format.md §6). */
const MATRIX: Array<[FieldTable, number[]]> = [
  [CPU_TABLE, [15, 15, 15, 15, 15, 15, 15, 15, 15]],
  [CPU_CORE_TABLE, [15, 15, 15, 15, 15, 15, 15, 15, 15]],
  [CPL_TABLE, [6, 6, 6, 6, 6, 6, 6, 6, 6]],
  [GPU_TABLE, [11, 11, 11, 11, 11, 11, 11, 11, 11]],
  [MEM_TABLE, [15, 16, 18, 21, 21, 26, 26, 26, 26]],
  [SWP_TABLE, [6, 6, 9, 9, 9, 9, 9, 9, 9]],
  [PAG_TABLE, [6, 6, 10, 12, 12, 14, 14, 14, 14]],
  [PSI_TABLE, [21, 21, 21, 21, 21, 21, 21, 21, 21]],
  [LVM_TABLE, [6, 6, 8, 10, 10, 10, 10, 10, 10]],
  [MDD_TABLE, [6, 6, 8, 10, 10, 10, 10, 10, 10]],
  [DSK_TABLE, [6, 6, 8, 10, 10, 10, 10, 10, 10]],
  [NFM_TABLE, [9, 9, 9, 9, 9, 9, 9, 9, 9]],
  [NFC_TABLE, [5, 5, 5, 5, 5, 5, 5, 5, 5]],
  [NFS_TABLE, [15, 15, 15, 15, 15, 15, 15, 15, 15]],
  [NET_UPPER_TABLE, [9, 17, 17, 17, 17, 18, 18, 18, 18]],
  [NET_INTERFACE_TABLE, [7, 7, 7, 7, 7, 7, 7, 19, 19]],
  [IFB_TABLE, [8, 8, 8, 8, 8, 8, 8, 8, 8]],
  [NUM_TABLE, [0, 0, 13, 13, 13, 14, 14, 14, 14]],
  [NUC_TABLE, [0, 0, 11, 11, 11, 11, 11, 11, 11]],
  [LLC_TABLE, [0, 0, 0, 4, 4, 4, 4, 4, 4]],
  [CGR_CGROUP_TABLE, [0, 0, 0, 0, 0, 0, 26, 26, 26]],
  [PRG_TABLE, [25, 26, 26, 27, 28, 29, 29, 29, 29]],
  [PRC_TABLE, [14, 16, 16, 19, 21, 21, 21, 21, 21]],
  [PRM_TABLE, [18, 19, 19, 23, 23, 23, 23, 23, 23]],
  [PRD_TABLE, [13, 13, 13, 13, 13, 13, 13, 13, 13]],
  [PRN_TABLE, [16, 16, 16, 16, 16, 16, 16, 16, 16]],
  [PRE_TABLE, [11, 11, 11, 11, 11, 11, 11, 11, 13]],
];
const COLUMNS = ['2.4', '2.6', '2.7', '2.8', '2.9', '2.10', '2.11', '2.12', '2.13'] as const;

/** The versions a layout string names, expanded: `2.8–2.9` → 2.8, 2.9. */
function expand(versions: string): string[] {
  const [from = '', to = from] = versions.split('–');
  return ATOP_VERSIONS.slice(ATOP_VERSIONS.indexOf(from as never), ATOP_VERSIONS.indexOf(to as never) + 1);
}

for (const [table, counts] of MATRIX) {
  test(`${table.name}: each field count names exactly the versions printing it`, (t) => {
    const expected = new Map<number, string[]>();
    counts.forEach((count, i) => {
      if (count === 0) return;
      const versions = COLUMNS[i] === '2.4' ? ['2.4', '2.5'] : [COLUMNS[i]!];
      expected.set(count, [...(expected.get(count) ?? []), ...versions]);
    });
    for (const [count, versions] of expected) {
      const layout = pickLayout(table, count);
      t.is(layout?.fields.length, count, `count ${count}`);
      t.deepEqual(expand(layout!.versions), versions, `count ${count}`);
    }
    t.deepEqual(table.layouts.map((l) => l.count), [...expected.keys()]);
  });
}

test('field names are unique within every layout and snake_case', (t) => {
  for (const [table] of MATRIX) {
    for (const layout of table.layouts) {
      const names = layout.fields.map((f) => f.name);
      t.is(new Set(names).size, names.length, table.name);
      for (const n of names) t.regex(n, /^[a-z][a-z0-9_]*$/, `${table.name}.${n}`);
    }
  }
});
