// The `-P` labels perfpipe asks atop for when it runs atop itself (`atop_raw` replays, `atop_spawn` runs): by default
// exactly those parsers/atop/derive.ts turns into rows, so atop does not format what is never stored.
import { z } from 'zod';

/** Every label atop 2.4–2.13 knows (docs/atop-format.md §2), plus `ALL`. An older atop refuses the newer ones (NUM 2.7, CGR 2.11). */
const KNOWN = [
  'ALL', 'CPU', 'cpu', 'CPL', 'GPU', 'MEM', 'SWP', 'PAG', 'PSI', 'LVM', 'MDD', 'DSK', 'NFM', 'NFC', 'NFS', 'NET', 'IFB',
  'NUM', 'NUC', 'LLC', 'CGR', 'PRG', 'PRC', 'PRM', 'PRD', 'PRN', 'PRE',
] as const;
export type AtopLabel = (typeof KNOWN)[number];

/**
 * What derive.ts reads: CPU and cpu (CPU busy), CPL (load), PRG (run queue), MEM and SWP (memory), LVM, MDD and DSK
 * (disks), NET (interfaces), PRC, PRM and PRD (top processes by CPU, memory and disk).
 */
export const ATOP_STORED_LABELS: AtopLabel[] = ['CPU', 'cpu', 'CPL', 'MEM', 'SWP', 'LVM', 'MDD', 'DSK', 'NET', 'PRG', 'PRC', 'PRM', 'PRD'];

export const AtopLabelsSchema = z.array(z.enum(KNOWN, {
  error: (issue) => `${JSON.stringify(issue.input)} is not an atop -P label; expected one of ${KNOWN.join(', ')} (case matters: CPU is the total, cpu one core)`,
})).min(1, { error: 'is empty; expected atop -P labels such as ["CPU", "cpu", "MEM"]' });
