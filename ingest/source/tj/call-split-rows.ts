// The split of every TJ server call as a tj_call_splits row, decided while the journal is read (issue #25; the rule is
// docs/tj-format.md §4.3, the accountant parsers/tj/calls/thread-accounts.ts). One accountant per process folder
// (`<process>_<pid>`) for the life of the source, shared by the readers of that folder's hour files, so a call that
// began in one hour file and ended in the next gets the events of both. The row goes into the segment of its CALL
// line, beside the CALL's tj_events row: the segment's deduplication token covers both, so a replay stores neither
// twice. What a kill -9 loses is the accounts held in memory: reading resumes at the checkpoint with a fresh
// accountant, opened `resumed`, and calls that began before its first event are flagged `partial` (their nested
// events before the checkpoint are in `other_us`), never counted twice (docs/write-path.md §12).
import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { formatDateTime64 } from '../../../schemas/columns.js';
import { TJ_CALL_SPLITS, type TjCallSplitRow } from '../../../schemas/tj-call-split-row.js';
import type { CallFactSink, CallLine } from '../../../parsers/tj/calls/call-facts.js';
import { createThreadAccounts, type ClosedSplit, type ThreadAccounts } from '../../../parsers/tj/calls/thread-accounts.js';
import { TableWriter } from '../../rows/table-writer.js';

/** Statement shapes kept per call, most time first; the others are summed under sql_hash 0. */
export const STATEMENTS_KEPT = 32;

/** The accountants of one source, one per process folder. */
export interface CallAccountBook {
  /** The accountant of the folder holding `file`; `offset` is where reading of that file starts. */
  accountFor(file: string, offset: number): ThreadAccounts;
}

/**
 * An accountant is opened `resumed` when its folder's reading does not begin at the start of the journal: the first
 * file it reads is read from an offset (a checkpoint), or an earlier hour file of the folder exists (read before a
 * restart). Then calls that began before the first event it sees are flagged partial instead of silently short.
 */
export function createCallAccountBook(): CallAccountBook {
  const byFolder = new Map<string, ThreadAccounts>();
  return {
    accountFor(file, offset) {
      const folder = dirname(file);
      let a = byFolder.get(folder);
      if (a === undefined) {
        const name = basename(file);
        let earlier = false;
        try {
          earlier = readdirSync(folder).some((f) => f.endsWith('.log') && f < name);
        } catch { /* the folder went away: nothing earlier to miss */ }
        byFolder.set(folder, (a = createThreadAccounts({ resumed: offset > 0 || earlier })));
      }
      return a;
    },
  };
}

/** The tj_call_splits row of a closed split. */
export function callSplitRow(s: ClosedSplit, line: CallLine, fileKey: string, offset: number): TjCallSplitRow {
  const kept = s.statements.slice(0, STATEMENTS_KEPT);
  const rest = s.statements.slice(STATEMENTS_KEPT);
  if (rest.length > 0) kept.push({ key: '0', count: rest.reduce((a, x) => a + x.count, 0), us: rest.reduce((a, x) => a + x.us, 0) });
  return {
    // A duration longer than the time since 1970 (a damaged line) starts the call at the epoch, not before it.
    ts: formatDateTime64(s.end_us, 6), ts_start: formatDateTime64(Math.max(0, s.end_us - s.duration_us), 6),
    host: line.host, process: line.process, pid: line.pid, infobase: line.infobase,
    connect_id: line.connect_id, session_id: line.session_id, os_thread: line.os_thread, user: line.user, context_first: line.context_first,
    duration_us: s.duration_us, db_us: s.db_us, lock_wait_us: s.lock_wait_us, cpu_us: s.cpu_us, thread_wait_us: s.thread_wait_us, other_us: s.other_us,
    db_count: s.db_count, lock_wait_count: s.lock_wait_count, dbpids: s.dbpids,
    sql_hashes: kept.map((x) => x.key), sql_counts: kept.map((x) => x.count), sql_us: kept.map((x) => x.us),
    flags: (Object.keys(s.flags) as Array<keyof ClosedSplit['flags']>).filter((k) => s.flags[k]),
    file_key: fileKey, file_offset: offset,
  };
}

/** Each event's facts into its folder's accountant, and a closed call's row into `writer`. */
export function createCallSplitSink(book: CallAccountBook, writer: TableWriter<typeof TJ_CALL_SPLITS>): CallFactSink {
  let file = '';
  let account: ThreadAccounts | null = null;
  return {
    fact(f, fileKey, startOffset, fact, line) {
      if (account === null || f !== file) { file = f; account = book.accountFor(f, startOffset); }
      const split = account.push(fact);
      if (split !== null && line !== null) writer.write(callSplitRow(split, line, fileKey, fact.position));
    },
  };
}
