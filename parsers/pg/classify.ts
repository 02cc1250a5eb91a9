// Decides what an entry means (lock wait, deadlock, duration, checkpoint…) from its message in any catalog
// language, and extracts the typed figures (docs/pg-format.md §7). Unrecognised messages fall back on their severity.
import type { PgDeadlockParticipant, PgEvent, PgLock } from '../../schemas/pg-event.js';
import { parseLockObject, relationFromContext } from './lock-object.js';
import { CATALOG } from './message-catalog.js';
import { createCatalogMatcher, localNumber, type CatalogMatch } from './message-patterns.js';

const ID = {
  waiting: 'process %d still waiting for %s on %s after %ld.%03d ms',
  acquired: 'process %d acquired %s on %s after %ld.%03d ms',
  deadlockWait: 'process %d detected deadlock while waiting for %s on %s after %ld.%03d ms',
  avoided: 'process %d avoided deadlock for %s on %s by rearranging queue order after %ld.%03d ms',
  failed: 'process %d failed to acquire %s on %s after %ld.%03d ms',
  notObtained: 'process %d could not obtain %s on %s',
  deadlock: 'deadlock detected',
  lockTimeout: 'canceling statement due to lock timeout',
  stmtTimeout: 'canceling statement due to statement timeout',
  durationStmt: 'duration: %s ms  statement: %s',
  durationBind: 'duration: %s ms  bind %s%s%s: %s',
  durationParse: 'duration: %s ms  parse %s: %s',
  durationPlan: 'duration: %.3f ms  plan:\n%s',
  durationFast: 'duration: %s ms  fastpath function call: %s',
  durationExec: 'duration: %s ms  %s %s%s%s: %s',
  duration: 'duration: %s ms',
  statement: 'statement: %s',
  execStatement: '%s %s%s%s: %s',
  tempFile: 'temporary file: path "%s", size %lu',
  ckptStart: 'checkpoint starting:%s%s%s%s%s%s%s%s',
  restartStart: 'restartpoint starting:%s',
  ckptDone: 'checkpoint complete: wrote %d buffers (%.1f%%); %d WAL file(s) added, %d removed, %d recycled; write=%ld.%03d s, sync=%ld.%03d s, total=%ld.%03d s; sync files=%d, longest=%ld.%03d s, average=%ld.%03d s; distance=%d kB, estimate=%d kB',
  ckptDoneAny: 'checkpoint complete: %s',
  restartDone: 'restartpoint complete: %s',
  ckptOften: 'checkpoints are occurring too frequently (%d seconds apart)',
  vacuum: 'automatic vacuum of table "%s.%s.%s": index scans: %d\n',
  vacuumAggr: 'automatic aggressive vacuum of table "%s.%s.%s": index scans: %d\n',
  vacuumWrap: 'automatic aggressive vacuum to prevent wraparound of table "%s.%s.%s": index scans: %d\n',
  vacuumWrap2: 'automatic vacuum to prevent wraparound of table "%s.%s.%s": index scans: %d\n',
  analyze: 'automatic analyze of table "%s.%s.%s"\n',
  connPort: 'connection received: host=%s port=%s',
  conn: 'connection received: host=%s',
  connAuthn: 'connection authenticated: %s',
  connAuthz: 'connection authorized: user=%s',
  replAuthz: 'replication connection authorized: user=%s',
  disconn: 'disconnection: session time: %d:%02d:%02d.%03d user=%s database=%s host=%s%s%s',
  killed: '%s (PID %d) was terminated by signal %d: %s',
  exited: '%s (PID %d) exited with exit code %d',
  terminatingOthers: 'terminating any other active server processes',
  reinit: 'all server processes terminated; reinitializing',
  starting: 'starting PostgreSQL %s',
  ready: 'database system is ready to accept connections',
  shutDown: 'database system is shut down',
  fastShutdown: 'received fast shutdown request',
  smartShutdown: 'received smart shutdown request',
  immediateShutdown: 'received immediate shutdown request',
  shuttingDown: 'shutting down',
} as const;

const LOCK_PHASE: Readonly<Record<string, PgLock['phase']>> = {
  [ID.waiting]: 'still_waiting', [ID.acquired]: 'acquired', [ID.deadlockWait]: 'deadlock',
  [ID.avoided]: 'avoided_deadlock', [ID.failed]: 'failed', [ID.notObtained]: 'not_obtained',
};

// Order is priority within one first word: the commonest first, loose shapes (checked by `accept`) late, and the
// bare `duration: %s ms` last since it is a prefix of every other duration line.
const LATE: readonly string[] = [ID.durationExec, ID.execStatement, ID.duration, ID.ckptDoneAny];
const messages = createCatalogMatcher([...Object.values(ID).filter((id) => !LATE.includes(id)), ...LATE]);
const deadlockLines = createCatalogMatcher(['Process %d waits for %s on %s; blocked by process %d.', 'Process %d: %s']);
// Not translated in PG15 (docs/pg-format.md §6); PG18 NOWAIT failures print ", Wait queue:".
const HOLDERS = /Process(?:es)? holding the lock: ([\d, ]*)[.,] Wait queue: ([\d, ]*)\./;

const pids = (s: string): number[] => s.split(',').map((x) => x.trim()).filter((x) => x !== '').map(Number);

function holders(detail: string | null): { h: number[]; q: number[] } {
  const m = detail === null ? null : HOLDERS.exec(detail);
  return m === null ? { h: [], q: [] } : { h: pids(m[1] ?? ''), q: pids(m[2] ?? '') };
}

function lockFrom(m: CatalogMatch, e: PgEvent): PgLock {
  const obj = parseLockObject(m.args[2] ?? '');
  const { h, q } = holders(e.detail);
  const ctx = relationFromContext(e.context);
  const ms = m.args[3] !== undefined && m.args[3] !== '' ? localNumber(`${m.args[3]}.${m.args[4] ?? '0'}`) : null;
  return {
    phase: LOCK_PHASE[m.id] ?? 'still_waiting', pid: Number(m.args[0]), mode: m.args[1] ?? null, ...obj,
    relation_name: ctx?.name ?? null, wait_ms: ms, holder_pids: h, queue_pids: q,
  };
}

/** Participants from `Process A waits for M on O; blocked by process B.` and `Process A: <sql>` DETAIL lines. */
export function parseDeadlockDetail(detail: string | null): PgDeadlockParticipant[] {
  const out: PgDeadlockParticipant[] = [];
  if (detail === null) return out;
  const byPid = new Map<number, PgDeadlockParticipant>();
  let last: PgDeadlockParticipant | null = null;
  for (const line of detail.split('\n')) {
    const m = deadlockLines.match(line);
    if (m === null || m.args.length === 0) {
      if (last !== null && last.statement !== null) last.statement += `\n${line}`; // multi-line SQL text
      continue;
    }
    const pid = Number(m.args[0]);
    let p = byPid.get(pid);
    if (p === undefined) {
      p = { pid, mode: null, object: null, blocked_by: null, statement: null };
      byPid.set(pid, p);
      out.push(p);
    }
    if (m.id.startsWith('Process %d waits')) {
      p.mode = m.args[1] ?? null;
      p.object = parseLockObject(m.args[2] ?? '').object;
      p.blocked_by = Number(m.args[3]);
      last = null;
    } else {
      p.statement = m.args[1] ?? '';
      last = p;
    }
  }
  return out;
}

function durationOf(m: CatalogMatch): number {
  return localNumber(m.args[0] ?? '');
}

/** `P_0/C_1` → `P_0` (portal dropped). */
const nameOnly = (s: string): string => { const i = s.indexOf('/'); return i < 0 ? s : s.slice(0, i); };

// Localized spellings of `execute fetch from` / `execute` (ru `выборка из` / `выполнение`), fetch form first.
const VERBS: ReadonlyArray<readonly [string, 'execute' | 'execute_fetch']> = (['execute fetch from', 'execute'] as const)
  .flatMap((id) => [...new Set((CATALOG.find((r) => r[0] === id) ?? [id]).filter((w) => w !== ''))]
    .map((w) => [`${w} `, id === 'execute' ? 'execute' : 'execute_fetch'] as const));

/** `execute P_0/C_1` split by the loose `%s %s%s%s` shape into (verb, rest): which verb, and the statement name. */
function executeVerb(verb: string, rest: string): { phase: 'execute' | 'execute_fetch'; name: string } | null {
  const text = `${verb} ${rest}`;
  for (const [w, phase] of VERBS) if (text.startsWith(w)) return { phase, name: nameOnly(text.slice(w.length)) };
  return null;
}

// Other releases' `checkpoint complete:` layouts (9.x "transaction log file(s)", 17 "lsn=", 18 "SLRU buffers"),
// read figure by figure under the names the PG13–16 layout gets above.
const FIGURES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/wrote (\d+) buffers \(([\d.]+)%\)/, ['buffers', 'buffers_pct']],
  [/wrote (\d+) SLRU buffers/, ['slru_buffers']],
  [/(\d+) (?:WAL|transaction log) file\(s\) added, (\d+) removed, (\d+) recycled/, ['wal_added', 'wal_removed', 'wal_recycled']],
  [/write=([\d.]+) s, sync=([\d.]+) s, total=([\d.]+) s/, ['write_s', 'sync_s', 'total_s']],
  [/sync files=(\d+), longest=([\d.]+) s, average=([\d.]+) s/, ['sync_files', 'longest_s', 'average_s']],
  [/distance=(\d+) kB, estimate=(\d+) kB/, ['distance_kb', 'estimate_kb']],
];

function checkpointFigures(message: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [re, names] of FIGURES) {
    const m = re.exec(message);
    if (m !== null) names.forEach((n, i) => { out[n] = Number(m[i + 1]); });
  }
  return out;
}

function keyValues(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of body.split('\n')) {
    const i = line.indexOf(': ');
    if (i <= 0) continue;
    out[line.slice(0, i).trim()] = line.slice(i + 2).trim();
  }
  return out;
}

/** `user=app database=shop application_name=x SSL enabled …` → values of the English keys. */
function connectionWords(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(' ')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}

function acceptLoose(m: CatalogMatch): boolean {
  if (m.id === ID.durationExec) return VERBS.some(([w]) => w.startsWith(`${m.args[1] ?? ''} `));
  if (m.id === ID.execStatement) return VERBS.some(([w]) => w.startsWith(`${m.args[0] ?? ''} `));
  return true;
}

// `duration: D ms  statement|parse|bind|execute …` is most of a busy English log (log_min_duration_statement=0):
// read it by hand before the catalog regexes. Same results as the catalog path (classify.test.ts covers both).
const STEP: ReadonlyArray<readonly [string, 'statement' | 'parse' | 'bind' | 'execute' | 'execute_fetch']> = [
  ['statement: ', 'statement'], ['execute fetch from ', 'execute_fetch'], ['execute ', 'execute'], ['bind ', 'bind'],
  ['parse ', 'parse'],
];

function englishDuration(e: PgEvent): boolean {
  const msg = e.message;
  if (!msg.startsWith('duration: ')) return false;
  const ms = msg.indexOf(' ms  ', 10);
  if (ms < 0) return false;
  const n = Number(msg.slice(10, ms));
  if (Number.isNaN(n)) return false;
  const at = ms + 5;
  for (const [word, phase] of STEP) {
    if (!msg.startsWith(word, at)) continue;
    let sql = at + word.length;
    let name: string | null = null;
    if (phase !== 'statement') {
      const colon = msg.indexOf(': ', sql);
      const nl = msg.indexOf('\n', sql);
      if (colon < 0 || (nl >= 0 && nl < colon)) return false;
      name = nameOnly(msg.slice(sql, colon));
      sql = colon + 2;
    }
    e.kind = 'duration';
    e.lang = 'en';
    e.duration_ms = n;
    e.statement_phase = phase;
    e.prepared_name = name;
    e.statement ??= msg.slice(sql);
    return true;
  }
  return false;
}

/** Sets kind and the typed fields of `e` from its message and severity (readers leave them empty). */
export function classify(e: PgEvent): void {
  if (englishDuration(e)) return;
  const c = e;
  const m = messages.match(e.message, acceptLoose);
  if (m !== null) {
    c.lang = m.lang;
    const a = m.args;
    switch (m.id) {
      case ID.waiting: case ID.acquired: case ID.deadlockWait: case ID.avoided: case ID.failed: case ID.notObtained:
        c.kind = 'lock_wait';
        c.lock = lockFrom(m, e);
        break;
      case ID.deadlock:
        c.kind = 'deadlock';
        c.deadlock = parseDeadlockDetail(e.detail);
        break;
      case ID.lockTimeout: c.kind = 'lock_timeout'; break;
      case ID.stmtTimeout: c.kind = 'statement_timeout'; break;
      case ID.durationPlan:
        c.kind = 'auto_explain';
        c.duration_ms = durationOf(m);
        c.plan = a[1] ?? '';
        break;
      case ID.durationStmt:
        c.kind = 'duration'; c.duration_ms = durationOf(m); c.statement_phase = 'statement'; c.statement ??= a[1] ?? null;
        break;
      case ID.durationParse: case ID.durationBind:
        c.kind = 'duration'; c.duration_ms = durationOf(m);
        c.statement_phase = m.id === ID.durationParse ? 'parse' : 'bind';
        c.prepared_name = nameOnly(a[1] ?? '');
        c.statement ??= a[m.id === ID.durationParse ? 2 : 4] ?? null;
        break;
      case ID.durationFast:
        c.kind = 'duration'; c.duration_ms = durationOf(m); c.statement_phase = 'fastpath'; c.statement ??= a[1] ?? null;
        break;
      case ID.durationExec: {
        const v = executeVerb(a[1] ?? '', a[2] ?? '');
        c.kind = 'duration'; c.duration_ms = durationOf(m);
        c.statement_phase = v?.phase ?? 'execute'; c.prepared_name = v?.name ?? null; c.statement ??= a[5] ?? null;
        break;
      }
      case ID.duration: c.kind = 'duration'; c.duration_ms = durationOf(m); break;
      case ID.statement: c.kind = 'statement'; c.statement_phase = 'statement'; c.statement ??= a[0] ?? null; break;
      case ID.execStatement: {
        const v = executeVerb(a[0] ?? '', a[1] ?? '');
        c.kind = 'statement'; c.statement_phase = v?.phase ?? 'execute'; c.prepared_name = v?.name ?? null;
        c.statement ??= a[4] ?? null;
        break;
      }
      case ID.tempFile:
        c.kind = 'temp_file'; c.temp_file_path = a[0] ?? null; c.temp_file_bytes = Number(a[1]);
        break;
      case ID.ckptStart: case ID.restartStart:
        c.kind = 'checkpoint';
        c.checkpoint = { phase: 'starting', flags: (a[0] ?? '').trim().split(/\s+/).filter((x) => x !== ''), figures: {} };
        break;
      case ID.ckptDone: {
        const n = (i: number): number => localNumber(a[i] ?? '');
        const s = (i: number): number => localNumber(`${a[i] ?? '0'}.${a[i + 1] ?? '0'}`);
        c.kind = 'checkpoint';
        c.checkpoint = {
          phase: 'complete', flags: [], figures: {
            buffers: n(0), buffers_pct: n(1), wal_added: n(2), wal_removed: n(3), wal_recycled: n(4), write_s: s(5),
            sync_s: s(7), total_s: s(9), sync_files: n(11), longest_s: s(12), average_s: s(14), distance_kb: n(16),
            estimate_kb: n(17),
          },
        };
        break;
      }
      case ID.ckptDoneAny: case ID.restartDone:
        c.kind = 'checkpoint';
        c.checkpoint = { phase: 'complete', flags: [], figures: checkpointFigures(e.message) };
        break;
      case ID.ckptOften:
        c.kind = 'checkpoint'; c.checkpoint = { phase: 'too_frequent', flags: [], figures: { seconds_apart: Number(a[0]) } };
        break;
      case ID.vacuum: case ID.vacuumAggr: case ID.vacuumWrap: case ID.vacuumWrap2: case ID.analyze: {
        const nl = e.message.indexOf('\n');
        c.kind = m.id === ID.analyze ? 'autoanalyze' : 'autovacuum';
        c.vacuum = {
          table: `${a[0]}.${a[1]}.${a[2]}`, aggressive: m.id === ID.vacuumAggr || m.id === ID.vacuumWrap,
          wraparound: m.id === ID.vacuumWrap || m.id === ID.vacuumWrap2,
          index_scans: a[3] !== undefined && a[3] !== '' ? Number(a[3]) : null,
          properties: nl < 0 ? {} : keyValues(e.message.slice(nl + 1)),
        };
        break;
      }
      case ID.connPort: case ID.conn:
        c.kind = 'connection';
        c.connection = {
          phase: 'received', host: a[0] ?? null, port: a[1] !== undefined && a[1] !== '' ? Number(a[1]) : null,
          user: null, database: null, application: null, session_ms: null,
        };
        break;
      case ID.connAuthn:
        c.kind = 'connection';
        c.connection = { phase: 'authenticated', host: null, port: null, user: null, database: null, application: null, session_ms: null };
        break;
      case ID.connAuthz: case ID.replAuthz: {
        const rest = a[0] ?? '';
        const sp = rest.indexOf(' ');
        const kv = connectionWords(rest);
        c.kind = 'connection';
        c.connection = {
          phase: 'authorized', host: null, port: null, user: sp < 0 ? rest : rest.slice(0, sp),
          database: kv.database ?? null, application: kv.application_name ?? null, session_ms: null,
        };
        break;
      }
      case ID.disconn: {
        const hostPart = (a[6] ?? '').trim();
        const sp = hostPart.indexOf(' ');
        const port = /=(\d+)/.exec(hostPart);
        c.kind = 'connection';
        c.connection = {
          phase: 'disconnection', host: sp < 0 ? hostPart : hostPart.slice(0, sp), port: port ? Number(port[1]) : null,
          user: a[4] ?? null, database: a[5] ?? null, application: null,
          session_ms: ((Number(a[0]) * 60 + Number(a[1])) * 60 + Number(a[2])) * 1000 + Number(a[3]),
        };
        break;
      }
      case ID.killed: case ID.exited: {
        // A background worker leaving with code 0/1 is routine (the logical replication launcher at shutdown).
        const routine = m.id === ID.exited && Number(a[2]) <= 1 && !(a[0] ?? '').startsWith('server process');
        c.kind = routine ? 'other' : 'server_crash';
        c.server = {
          phase: routine ? 'child_exit' : 'crash', process: a[0] ?? null, child_pid: Number(a[1]),
          signal: m.id === ID.killed ? Number(a[2]) : null, exit_code: m.id === ID.exited ? Number(a[2]) : null,
        };
        break;
      }
      case ID.terminatingOthers: case ID.reinit:
        c.kind = 'server_crash';
        c.server = { phase: 'crash_restart', process: null, child_pid: null, signal: null, exit_code: null };
        break;
      case ID.starting: case ID.ready:
        c.kind = 'server_start';
        c.server = { phase: m.id === ID.ready ? 'ready' : 'starting', process: null, child_pid: null, signal: null, exit_code: null };
        break;
      case ID.shutDown: case ID.fastShutdown: case ID.smartShutdown: case ID.immediateShutdown: case ID.shuttingDown:
        c.kind = 'server_stop';
        c.server = {
          phase: m.id === ID.shutDown ? 'shut_down' : m.id === ID.shuttingDown ? 'shutting_down' : 'shutdown_request', process: null, child_pid: null, signal: null, exit_code: null,
        };
        break;
    }
  }
  if (c.kind === 'other' || ((c.kind === 'server_start' || c.kind === 'server_stop') && e.severity !== 'LOG')) {
    if (e.severity === 'ERROR') c.kind = 'error';
    else if (e.severity === 'FATAL') c.kind = 'fatal';
  }
  if (e.severity === 'PANIC') c.kind = 'panic';
}
