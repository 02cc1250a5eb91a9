// The named runs a simulated load test holds and the PostgreSQL settings changed around them (issue #25, item 6):
// the time is split into two runs with a pause between; in the pause the DBA runs ALTER SYSTEM and reloads, and the
// postmaster logs the reload and each parameter it changed (always, at LOG level: docs/pg-format.md §8); one more
// setting changes in the middle of the second run. The log gives the new value only; `a` is the server default.
import type { PgLogEntry } from './pg-log-writer.js';
import { isoUs } from './iso-us.js';

export interface SimRun { name: string; from_us: number; to_us: number }

export interface ExpectedSettingChange {
  /** ISO-8601 UTC with µs: when the postmaster logged the new value. */
  at: string;
  name: string;
  /** The value before (the default of a fresh PostgreSQL 15) and after, as postgresql.conf spells them. */
  a: string;
  b: string;
  /** The run the change fell in, or null between runs. */
  during: string | null;
}

export interface ExpectedRuns {
  runs: { name: string; from: string; to: string }[];
  settings: ExpectedSettingChange[];
}

/** Postmaster pid of the simulated server (load-test.ts writes its start line). */
export const POSTMASTER_PID = 812;

const BETWEEN_RUNS = [{ name: 'work_mem', a: '4MB', b: '64MB' }, { name: 'random_page_cost', a: '4', b: '1.1' }] as const;
const DURING_RUN = { name: 'checkpoint_timeout', a: '5min', b: '15min' } as const;

export function planRuns(startUs: number, endUs: number): { runs: SimRun[]; pg: PgLogEntry[]; expected: ExpectedRuns } {
  const span = endUs - startUs;
  const at = (share: number): number => startUs + Math.round(span * share);
  const runs: SimRun[] = [{ name: 'sim-1', from_us: startUs, to_us: at(0.45) }, { name: 'sim-2', from_us: at(0.55), to_us: endUs }];
  const pg: PgLogEntry[] = [];
  const settings: ExpectedSettingChange[] = [];
  const reload = (atUs: number, changes: ReadonlyArray<{ name: string; a: string; b: string }>, during: string | null): void => {
    const line = (text: string): PgLogEntry => ({ at_us: atUs, pid: POSTMASTER_PID, session: false, lines: [{ label: 'LOG', text }] });
    pg.push(line('received SIGHUP, reloading configuration files'));
    for (const c of changes) {
      pg.push(line(`parameter "${c.name}" changed to "${c.b}"`));
      settings.push({ at: isoUs(atUs), ...c, during });
    }
  };
  reload(at(0.5), BETWEEN_RUNS, null);
  reload(at(0.8), [DURING_RUN], 'sim-2');
  return { runs, pg, expected: { runs: runs.map((r) => ({ name: r.name, from: isoUs(r.from_us), to: isoUs(r.to_us) })), settings } };
}
