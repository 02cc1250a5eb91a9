// Registry of every label atop 2.4–2.13 prints in parseable output: how a line's tokens are found and
// which field table names them. Order is the fixed print order inside a sample (parseable.c, docs/atop-format.md §2).
import { CPL_TABLE, CPU_CORE_TABLE, CPU_TABLE, LLC_TABLE, NUC_TABLE } from './cpu.js';
import { DSK_TABLE, LVM_TABLE, MDD_TABLE, NFC_TABLE, NFM_TABLE, NFS_TABLE } from './disk.js';
import { GPU_TABLE } from './gpu.js';
import type { FieldTable } from './layout.js';
import { MEM_TABLE, NUM_TABLE, PAG_TABLE, PSI_TABLE, SWP_TABLE } from './memory.js';
import { IFB_TABLE, netTable } from './network.js';
import { PRC_TABLE, PRD_TABLE, PRE_TABLE, PRG_TABLE, PRM_TABLE, PRN_TABLE } from './process.js';
import { cgrTable, tokenizeCgroup } from './cgroup.js';
import { tokenizeTask } from './task-tokens.js';

export interface LabelSpec {
  /** Tokens after the 6 header tokens, or why they cannot be found. */
  tokenize(rest: string): string[] | string;
  /** The field table for this line (NET and CGR print two kinds of line). */
  table(tokens: readonly string[]): FieldTable;
}

const plain = (table: FieldTable): LabelSpec => ({ tokenize: (rest) => rest.split(' '), table: () => table });
const task = (table: FieldTable, withCmdline = false): LabelSpec => ({
  tokenize: (rest) => tokenizeTask(rest, withCmdline),
  table: () => table,
});

export const LABELS: ReadonlyMap<string, LabelSpec> = new Map<string, LabelSpec>([
  ['CPU', plain(CPU_TABLE)],
  ['cpu', plain(CPU_CORE_TABLE)],
  ['CPL', plain(CPL_TABLE)],
  ['GPU', plain(GPU_TABLE)],
  ['MEM', plain(MEM_TABLE)],
  ['SWP', plain(SWP_TABLE)],
  ['PAG', plain(PAG_TABLE)],
  ['PSI', plain(PSI_TABLE)],
  ['LVM', plain(LVM_TABLE)],
  ['MDD', plain(MDD_TABLE)],
  ['DSK', plain(DSK_TABLE)],
  ['NFM', plain(NFM_TABLE)],
  ['NFC', plain(NFC_TABLE)],
  ['NFS', plain(NFS_TABLE)],
  ['NET', { tokenize: (rest) => rest.split(' '), table: netTable }],
  ['IFB', plain(IFB_TABLE)],
  ['NUM', plain(NUM_TABLE)],
  ['NUC', plain(NUC_TABLE)],
  ['LLC', plain(LLC_TABLE)],
  ['CGR', { tokenize: tokenizeCgroup, table: cgrTable }],
  ['PRG', task(PRG_TABLE, true)],
  ['PRC', task(PRC_TABLE)],
  ['PRM', task(PRM_TABLE)],
  ['PRD', task(PRD_TABLE)],
  ['PRN', task(PRN_TABLE)],
  ['PRE', task(PRE_TABLE)],
]);
