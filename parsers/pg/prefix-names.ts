// Names each value of a prefix template with its escape, from its values across the lines a template frames
// (docs/pg-format.md §3, "Finding the prefix", step 5): values that name themselves (a time with milliseconds, a
// session id, a backend type), a key before them (`user=`), the pid a lock-wait line or `%c` names, the line counter
// that counts up within a process, `user@db`, what `connection authorized:` says, and as a last resort an order.
import { createCatalogMatcher } from './message-patterns.js';
import { KEY_ESCAPE, type Shape } from './prefix-shape.js';

/** One framed line: its index among the prefixed lines and the value of each slot (undefined after an absent %q part). */
export interface Row {
  line: number;
  values: (string | undefined)[];
}

/** Lock-wait lines name their own process: `process N still waiting …` on a line whose prefix holds N. */
const OWN_PID = createCatalogMatcher([
  'process %d still waiting for %s on %s after %ld.%03d ms', 'process %d acquired %s on %s after %ld.%03d ms',
  'process %d detected deadlock while waiting for %s on %s after %ld.%03d ms',
]);
const CONNECTION_AUTHORIZED = /^connection authorized: user=(\S+)(?: database=(\S+))?(?: application_name=(.+?))?(?: SSL enabled.*| GSS.*)?$/;
const COMMAND_TAGS = /^(?:SELECT|INSERT|UPDATE|DELETE|MERGE|BEGIN|COMMIT|ROLLBACK|START TRANSACTION|DO|SET|SHOW|COPY|FETCH|CALL|EXECUTE|PREPARE|VACUUM|ANALYZE|CREATE \w+|DROP \w+|ALTER \w+|idle|idle in transaction|authentication|startup|PARSE|BIND)$/;
const APP_NAMES = /^(?:1CV8C?|1C:?Enterprise.*|psql|pgbench|pg_\w+|PostgreSQL JDBC Driver|DBeaver.*|pgAdmin.*|Npgsql|pgjdbc|Navicat.*|DataGrip.*|node-postgres|libpq|psycopg.*|asyncpg)$/i;
const ADDRESS = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*::[0-9a-fA-F:.]*|\[local\])$/;
/** Escapes whose value is empty in processes without a session: `%q` goes before the first of them. */
export const SESSION_ONLY: ReadonlySet<string> = new Set(['u', 'd', 'a', 'r', 'h', 'i']);

/** The key word in the literal text just before a slot (`user=` → user), lower-cased; none after `@` (`%u@%d`). */
function keyBefore(lit: string): string | null {
  const m = /([\p{L}_]+)\s*[=:]?\s*$/u.exec(lit);
  if (m === null || lit.slice(0, lit.length - m[0].length).endsWith('@')) return null;
  return (m[1] as string).toLowerCase();
}

/** The naming in progress: one letter per slot, given once. */
class Naming {
  readonly letters: (string | null)[];
  readonly taken = new Set<string>();
  constructor(readonly sh: Shape, readonly rows: readonly Row[], readonly messages: readonly string[]) {
    this.letters = sh.slots.map(() => null);
  }
  give(k: number, letter: string): void {
    this.letters[k] = letter;
    this.taken.add(letter);
  }
  /** Slots of `kinds` not named yet. */
  open(...kinds: string[]): number[] {
    return this.sh.slots.flatMap((s, k) => (kinds.includes(s) && this.letters[k] === null ? [k] : []));
  }
  /** The values a slot has on the lines where it has one. */
  column(k: number): string[] {
    return this.rows.map((r) => r.values[k]).filter((v): v is string => v !== undefined);
  }
}

function bySelfAndKeys(n: Naming): void {
  n.sh.slots.forEach((slot, k) => {
    if (slot === 'm' || slot === 'n' || slot === 'c' || slot === 'v' || slot === 'b' || slot === 'e' || slot === 'r') n.give(k, slot);
  });
  n.sh.slots.forEach((slot, k) => {
    const key = n.letters[k] === null ? keyBefore(n.sh.lits[k] as string) : null;
    const letter = key === null ? undefined : KEY_ESCAPE[key];
    if (letter === undefined || n.taken.has(letter)) return;
    if (slot === 'int' && !'plxQPe'.includes(letter)) return;
    if (slot === 't' && letter !== 't' && letter !== 's') return;
    n.give(k, letter);
  });
  // With %m, %n or a first time, a further time is the session's start.
  const times = n.open('t');
  for (const k of times) n.give(k, n.taken.has('m') || n.taken.has('n') || n.taken.has('t') || k !== times[0] ? 's' : 't');
}

/** The pid: named by a lock-wait line, or the hex after `%c`'s dot. */
function pidBySaying(n: Naming): void {
  const said = n.rows.map((r) => ({ r, pid: OWN_PID.match(n.messages[r.line] ?? '')?.args[0] })).filter((x) => x.pid !== undefined);
  const k = n.open('int').find((j) => said.length > 0 && said.filter((x) => x.r.values[j] === x.pid).length >= 0.9 * said.length);
  if (k !== undefined) { n.give(k, 'p'); return; }
  const sid = n.letters.indexOf('c');
  if (sid < 0) return;
  const withSid = n.rows.filter((r) => r.values[sid] !== undefined);
  for (const j of n.open('int')) {
    const agree = withSid.filter((r) => parseInt((r.values[sid] as string).split('.')[1] ?? '', 16) === Number(r.values[j])).length;
    if (agree > 0 && agree >= 0.9 * withSid.length) { n.give(j, 'p'); return; }
  }
}

/**
 * The line counter, and the pid it counts within: it grows within a process (by one, unless lines were filtered out)
 * and starts at 1 in every process that starts in the log. Pids handed out one after another (a container) also grow
 * within one line number, but over far fewer pairs.
 */
function lineCounter(n: Naming): void {
  let best: [pid: number, line: number, score: number] | null = null;
  for (const a of n.taken.has('p') ? [n.letters.indexOf('p')] : n.open('int')) {
    for (const b of n.open('int')) {
      if (a === b) continue;
      const last = new Map<string, number>();
      let pairs = 0;
      let steps = 0;
      let startsAtOne = 0;
      for (const r of n.rows) {
        const pa = r.values[a];
        const lb = r.values[b];
        if (pa === undefined || lb === undefined) continue;
        const prev = last.get(pa);
        if (prev !== undefined) { pairs++; if (Number(lb) > prev) steps++; } else if (lb === '1') startsAtOne++;
        last.set(pa, Number(lb));
      }
      const score = steps + 2 * startsAtOne;
      if (pairs >= 2 && steps >= 0.9 * pairs && (best === null || score > best[2])) best = [a, b, score];
    }
  }
  if (best === null) return;
  if (!n.taken.has('p')) n.give(best[0], 'p');
  n.give(best[1], 'l');
}

function numbers(n: Naming): void {
  if (!n.taken.has('p')) pidBySaying(n);
  if (!n.taken.has('l') && n.open('int').length >= (n.taken.has('p') ? 1 : 2)) lineCounter(n);
  if (!n.taken.has('p')) {
    // The number with the most different values (a pid is never 0).
    const pid = n.open('int').filter((k) => n.column(k).every((v) => /^\d+$/.test(v) && v !== '0'))
      .map((k) => [k, new Set(n.column(k)).size] as const).sort((x, y) => y[1] - x[1])[0];
    if (pid !== undefined && pid[1] > 0) n.give(pid[0], 'p');
  }
  // A query id is a 64-bit hash: negative or beyond 32 bits somewhere; an xid is not. All zero: taken as %x.
  for (const k of n.open('int')) {
    const big = n.column(k).some((v) => v.startsWith('-') || Number(v) > 4294967295);
    n.give(k, big && !n.taken.has('Q') ? 'Q' : ['x', 'Q', 'l'].find((l) => !n.taken.has(l)) ?? 'x');
  }
}

function freeText(n: Naming): void {
  const known = (k: number): string[] => n.column(k).filter((v) => v !== '' && !/^\[[^\]]*\]$/.test(v));
  for (const k of n.open('free', 'h')) {
    const filled = n.column(k).filter((v) => v !== '');
    if (n.sh.slots[k] === 'h' || (filled.length > 0 && filled.every((v) => ADDRESS.test(v)))) {
      const letter = ['h', 'r'].find((l) => !n.taken.has(l));
      if (letter !== undefined) n.give(k, letter);
    } else if (!n.taken.has('i') && known(k).length > 0 && known(k).filter((v) => COMMAND_TAGS.test(v)).length >= 0.6 * known(k).length) n.give(k, 'i');
  }
  byConnections(n);
  for (const k of n.open('free', 'h')) {
    if ((n.sh.lits[k + 1] ?? '').startsWith('@') && !n.taken.has('u')) n.give(k, 'u');
    else if ((n.sh.lits[k] ?? '').endsWith('@') && !n.taken.has('d')) n.give(k, 'd');
  }
  if (!n.taken.has('a')) {
    const named = n.open('free', 'h').find((k) => known(k).length > 0 && known(k).filter((v) => APP_NAMES.test(v)).length >= 0.5 * known(k).length);
    if (named !== undefined) n.give(named, 'a');
  }
  const rest = n.open('free', 'h');
  if (!n.taken.has('a') && rest.length >= 2 && (!n.taken.has('u') || !n.taken.has('d'))) {
    // Of user, database and application, the application changes most from session to session: clearly most.
    const [first, second] = rest.map((k) => [k, new Set(known(k)).size] as const).sort((x, y) => y[1] - x[1]);
    if (first !== undefined && first[1] >= 3 && first[1] >= 2 * (second?.[1] ?? 0)) n.give(first[0], 'a');
  }
  for (const k of n.open('free', 'h')) n.give(k, ['u', 'd', 'a', 'h', 'i'].find((l) => !n.taken.has(l)) ?? 'a');
}

/** `connection authorized: user=… database=… application_name=…` names the values of its pid's later lines. */
function byConnections(n: Naming): void {
  const pidSlot = n.letters.indexOf('p');
  if (pidSlot < 0) return;
  const conn = new Map<string, { u: string; d: string | undefined; a: string | undefined }>();
  for (const r of n.rows) {
    const m = CONNECTION_AUTHORIZED.exec(n.messages[r.line] ?? '');
    const pid = r.values[pidSlot];
    if (m !== null && pid !== undefined) conn.set(pid, { u: m[1] as string, d: m[2], a: m[3] });
  }
  if (conn.size === 0) return;
  for (const letter of ['a', 'u', 'd'] as const) {
    let best = -1;
    let hits = 0;
    for (const k of n.open('free', 'h')) {
      const hit = n.rows.filter((r) => {
        const v = r.values[k];
        return v !== undefined && v !== '' && v === conn.get(r.values[pidSlot] ?? '')?.[letter];
      }).length;
      if (hit > hits) { best = k; hits = hit; }
    }
    if (best >= 0 && !n.taken.has(letter)) n.give(best, letter);
  }
}

/** The escape letter of each slot of `sh`, from the values `rows` hold and the messages of their lines. */
export function nameSlots(sh: Shape, rows: readonly Row[], messages: readonly string[]): string[] {
  const n = new Naming(sh, rows, messages);
  bySelfAndKeys(n);
  numbers(n);
  freeText(n);
  return n.letters.map((l) => l ?? 'a');
}
