// Finds a stderr log's `log_line_prefix` from its first lines, when nobody said which it is (docs/pg-format.md §3,
// "Finding the prefix"). Pure: text in, a prefix (or the lines that fit none) out.
//
// Every prefixed line ends its prefix with a severity or label word in one of the catalog languages (`LOG:  `,
// `СООБЩЕНИЕ:  `), so the text before the first such word is one printed prefix. Each printed prefix is cut into
// values that have a shape of their own (a time, an epoch, a session id, a vxid, an address, a backend type, a
// SQLSTATE, a number, free text) and the literal text between them. The commonest cuts become candidate templates;
// the one that frames the most lines wins, `%q` goes where the lines of processes without a session stop, and each
// value becomes the escape its values across all lines point to: keys in the literal text (`user=`, `db=`),
// `user@db`, a line counter that grows by one per process, the pid inside `%c`, what `connection authorized:` says.
import { CATALOG } from './message-catalog.js';
import { createCatalogMatcher } from './message-patterns.js';
import { compilePrefix, type PrefixMatcher } from './prefix.js';
import { readHead } from './severity-words.js';

/** Lines read at most. */
export const DETECT_MAX_LINES = 2000;
/** Lines a candidate template is tried on (the winner is then counted on all). */
const TRIAL_LINES = 400;

export interface UnframedLine {
  /** 1-based line number in the sample (the file's first lines). */
  line: number;
  /** Byte offset of the line in the sample. */
  offset: number;
  text: string;
}

export interface PrefixDetection {
  /** The prefix found, or null when no template frames the lines. */
  prefix: string | null;
  /** Non-blank lines that start a line of their own (not a TAB continuation). */
  lines: number;
  /** Of those, lines that end their prefix with a severity or label word. */
  prefixed: number;
  /** Of those, lines the prefix frames. */
  framed: number;
  /** The first lines no template framed (up to 5). */
  unframed: UnframedLine[];
}

type Slot = 'm' | 't' | 'n' | 'c' | 'v' | 'b' | 'e' | 'r' | 'h' | 'int' | 'free';
interface Shape {
  /** Literal texts: one more than slots (before, between and after). */
  lits: string[];
  slots: Slot[];
}

const ZONE = '(?: (?:[A-Za-z]{1,6}|[+-]\\d\\d(?::?\\d\\d)?))?';
const VALUE_SHAPES: ReadonlyArray<[Slot, RegExp]> = [
  ['m', new RegExp(`\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}${ZONE}(?![\\w])`, 'y')],
  ['t', new RegExp(`\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d${ZONE}(?![\\w.])`, 'y')],
  ['n', /\d{9,11}\.\d{3}(?!\d)/y],
  ['c', /[0-9a-f]{6,8}\.[0-9a-f]{1,8}(?![0-9A-Za-z.])/y],
  ['r', /(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*::[0-9a-fA-F:.]*|\[local\])\(\d+\)/y],
  ['h', /(?:\d{1,3}(?:\.\d{1,3}){3}(?![\w.(])|[0-9a-fA-F]*::[0-9a-fA-F.]*(?![\w.(:])|\[local\])/y],
  ['v', /-?\d+\/\d+(?![\d/])/y],
];
const BACKEND_TYPES = [
  'client backend', 'autovacuum launcher', 'autovacuum worker', 'background writer', 'background worker',
  'logical replication launcher', 'logical replication worker', 'parallel worker', 'standalone backend',
  'not initialized', 'slotsync worker', 'walsummarizer', 'walwriter', 'walsender', 'walreceiver', 'checkpointer',
  'archiver', 'postmaster', 'startup', 'io worker', 'syslogger', 'stats collector',
];
const WORD = /[^\s[\](){}<>@,;:=|"'/]+/uy;
const INT = /-?\d+(?![\p{L}\d_])/uy;
/** `[unknown]` as printed before authentication (in any catalog language): a value, not literal brackets. */
const UNKNOWN_WORDS: readonly string[] = (CATALOG.find((r) => r[0] === '[unknown]') ?? ['[unknown]']).filter((w) => w !== '');
/** Lock-wait lines name their own process: `process N still waiting …` on a line whose prefix holds N. */
const OWN_PID = createCatalogMatcher([
  'process %d still waiting for %s on %s after %ld.%03d ms', 'process %d acquired %s on %s after %ld.%03d ms',
  'process %d detected deadlock while waiting for %s on %s after %ld.%03d ms',
]);
/** Words that name the value after them when followed by `=`, `:` or a space (`user=%u`, `pid:%p`). */
const KEY_ESCAPE: Readonly<Record<string, string>> = {
  user: 'u', usr: 'u', username: 'u', role: 'u', u: 'u',
  db: 'd', database: 'd', dbname: 'd', datname: 'd', d: 'd',
  app: 'a', appname: 'a', application: 'a', application_name: 'a', appli: 'a', a: 'a', prog: 'a', program: 'a',
  client: 'h', host: 'h', remote: 'h', ip: 'h', addr: 'h', from: 'h', h: 'h', remote_host: 'h', client_addr: 'h',
  pid: 'p', p: 'p', process: 'p', proc: 'p',
  line: 'l', l: 'l', ln: 'l', line_num: 'l', seq: 'l',
  session: 'c', sess: 'c', sid: 'c', session_id: 'c', c: 'c',
  xid: 'x', tx: 'x', txid: 'x', x: 'x', trx: 'x', transaction: 'x',
  vxid: 'v', v: 'v', vtx: 'v', virtualxid: 'v',
  queryid: 'Q', query_id: 'Q', qid: 'Q', q: 'Q',
  sqlstate: 'e', state: 'e', e: 'e', code: 'e', sql_error_code: 'e', err: 'e', error: 'e',
  type: 'b', backend: 'b', backend_type: 'b', b: 'b',
  tag: 'i', cmd: 'i', command: 'i', ps: 'i', i: 'i',
  time: 't', ts: 't', timestamp: 't', start: 's', session_start: 's',
  leader: 'P', leader_pid: 'P',
};
const COMMAND_TAGS = /^(?:SELECT|INSERT|UPDATE|DELETE|MERGE|BEGIN|COMMIT|ROLLBACK|START TRANSACTION|DO|SET|SHOW|COPY|FETCH|CALL|EXECUTE|PREPARE|VACUUM|ANALYZE|CREATE \w+|DROP \w+|ALTER \w+|idle|idle in transaction|authentication|startup|PARSE|BIND)$/;
const APP_NAMES = /^(?:1CV8C?|1C:?Enterprise.*|psql|pgbench|pg_\w+|PostgreSQL JDBC Driver|DBeaver.*|pgAdmin.*|Npgsql|pgjdbc|Navicat.*|DataGrip.*|node-postgres|libpq|psycopg.*|asyncpg)$/i;
/** Escapes whose value is empty in processes without a session: `%q` goes before the first of them. */
const SESSION_ONLY = new Set(['u', 'd', 'a', 'r', 'h', 'i']);

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** Index where the line's severity or label word begins (the end of its prefix), or -1. */
export function headPosition(line: string, maxPrefix = 300): number {
  const limit = Math.min(line.length, maxPrefix);
  for (let p = 0; p <= limit; p++) {
    if (p > 0 && isWordChar(line[p - 1])) continue;
    if (readHead(line, p) !== null) return p;
  }
  return -1;
}

/** Cuts one printed prefix into literal text and values (see the header). */
export function cutPrefix(s: string): Shape {
  const lits: string[] = [''];
  const slots: Slot[] = [];
  const value = (slot: Slot): void => {
    // Two values with nothing between them cannot be told apart: one value.
    if (slots.length > 0 && lits[lits.length - 1] === '' && (slot === 'free' || slots[slots.length - 1] === 'free')) {
      slots[slots.length - 1] = 'free';
      return;
    }
    slots.push(slot);
    lits.push('');
  };
  const literal = (text: string): void => { lits[lits.length - 1] += text; };
  let i = 0;
  outer: while (i < s.length) {
    const prev = s[i - 1];
    if (!isWordChar(prev)) {
      for (const [slot, re] of VALUE_SHAPES) {
        re.lastIndex = i;
        const m = re.exec(s);
        if (m !== null) { value(slot); i += m[0].length; continue outer; }
      }
      for (const b of BACKEND_TYPES) {
        if (s.startsWith(b, i) && !isWordChar(s[i + b.length])) { value('b'); i += b.length; continue outer; }
      }
      const unknown = UNKNOWN_WORDS.find((w) => s.startsWith(w, i));
      if (unknown !== undefined) { value('free'); i += unknown.length; continue; }
      const five = s.slice(i, i + 5);
      if (/^[0-9A-Z]{5}$/.test(five) && !isWordChar(s[i + 5]) && /\d/.test(five) && (five[0] === '0' || /[A-Z]/.test(five))) {
        value('e'); i += 5; continue;
      }
      INT.lastIndex = i;
      const n = INT.exec(s);
      if (n !== null) { value('int'); i += n[0].length; continue; }
    } else if (s[i] === '-') {
      // `[%p-%l]`, `[%l-1]`, `%t-%c-`: a dash glued to a value separates it from the next.
      literal('-');
      i++;
      continue;
    }
    WORD.lastIndex = i;
    const w = WORD.exec(s);
    if (w !== null) {
      const word = w[0];
      const next = s[i + word.length];
      const isKey = next === '=' || ((next === ':' || next === ' ') && KEY_ESCAPE[word.toLowerCase()] !== undefined);
      // `-1` in `[%l-1]` (pgBadger's prefix): punctuation and digits glued to a value are literal text.
      if (isKey || !/\p{L}/u.test(word) && !/^\d/.test(word)) literal(word);
      else value('free');
      i += word.length;
      // `user=,db=`: a key with nothing after it holds an empty value (a process without a session).
      if (next === '=' && (i + 1 >= s.length || /[\s,;|)\]>]/.test(s[i + 1] as string))) { literal('='); i++; value('free'); }
      continue;
    }
    literal(s[i] as string);
    i++;
  }
  return { lits, slots };
}

const escapeLiteral = (s: string): string => s.replaceAll('%', '%%');
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function shapeKey(sh: Shape): string {
  return JSON.stringify([sh.lits, sh.slots]);
}

/** The template with each slot written as `%<letter>` and `%q` at `cut` ([literal index, position in it]). */
function render(sh: Shape, letters: readonly string[], cut: Cut | null): string {
  let out = '';
  for (let k = 0; k < sh.lits.length; k++) {
    const lit = sh.lits[k] as string;
    if (cut?.[0] === k) out += `${escapeLiteral(lit.slice(0, cut[1]))}%q${escapeLiteral(lit.slice(cut[1]))}`;
    else out += escapeLiteral(lit);
    if (k < sh.slots.length) out += `%${letters[k]}`;
  }
  return out;
}

type Cut = [literal: number, at: number];

// How a slot is matched while templates are compared, on the printed prefix alone (anchored at both ends). Stricter
// than prefix.ts: a time has its zone (PostgreSQL always prints one), free text holds no space. Lazy groups that may
// hold spaces, several in a row, backtrack exponentially on a line they do not fit (minutes on 2,000 lines), and a
// zone left optional let a rarer shape split a value with spaces (`PostgreSQL JDBC Driver`) and still frame every line.
const TIME = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d';
const ZONE_WORD = '(?:[A-Za-z]{1,6}|[+-]\\d\\d(?::?\\d\\d)?)';
const TRIAL_SHAPE: Readonly<Record<Slot, string>> = {
  m: `${TIME}\\.\\d+ ${ZONE_WORD}`, t: `${TIME} ${ZONE_WORD}`, n: '\\d+\\.\\d+', c: '[0-9a-f]+\\.[0-9a-f]+',
  v: '(?:-?\\d+/\\d+)?', b: `(?:${BACKEND_TYPES.join('|')}|\\S*?)`, e: '[0-9A-Z]{5}', r: '\\S*?', h: '\\S*?',
  int: '-?\\d+', free: '\\S*?',
};

/** A regex over printed prefixes for the shape: a capture group per slot, optional from `cut` on. */
function trialRegex(sh: Shape, cut: Cut | null): RegExp {
  let src = '^';
  for (let k = 0; k < sh.lits.length; k++) {
    const lit = sh.lits[k] as string;
    src += cut?.[0] === k ? `${escapeRe(lit.slice(0, cut[1]))}(?:${escapeRe(lit.slice(cut[1]))}` : escapeRe(lit);
    if (k < sh.slots.length) src += `(${TRIAL_SHAPE[sh.slots[k] as Slot]})`;
  }
  return new RegExp(`${src}${cut === null ? '' : ')?'}$`);
}

function countFramed(matcher: PrefixMatcher, lines: readonly string[]): number {
  let n = 0;
  for (const l of lines) if (matcher.match(l) !== null) n++;
  return n;
}

const countMatches = (re: RegExp, texts: readonly string[]): number => texts.filter((t) => re.test(t)).length;

/** Where `%q` may go: every position in the literal text before each slot (and at the end). */
function cutPositions(sh: Shape): Cut[] {
  const out: Cut[] = [];
  for (let k = 0; k < sh.lits.length; k++) {
    const lit = sh.lits[k] as string;
    for (let j = 0; j <= lit.length; j++) out.push([k, j]);
  }
  return out;
}

/**
 * The cut of `test(cut)` that frames most of `missed` (lines the whole template did not frame; they still fit with
 * the tail after `%q` optional); `first` is tried first and kept unless another frames `margin` lines more.
 */
function bestCut(sh: Shape, missed: number, tryCut: (cut: Cut) => number, first: Cut | null, margin: number): { cut: Cut | null; framed: number } {
  let best: { cut: Cut | null; framed: number } = { cut: null, framed: 0 };
  if (first !== null) best = { cut: first, framed: tryCut(first) };
  if (missed === 0) return best;
  for (const cut of cutPositions(sh)) {
    if (cut[0] === first?.[0] && cut[1] === first[1]) continue;
    const n = tryCut(cut);
    if (n > best.framed + (best.cut === first && first !== null ? margin : 0)) best = { cut, framed: n };
  }
  return best;
}

interface Candidate {
  shape: Shape;
  cut: Cut | null;
  framed: number;
}

/** Whether `b` is `a` with more after it: client lines of a prefix whose background lines stop at `%q`. */
function extendsShape(b: Shape, a: Shape): boolean {
  const n = a.slots.length;
  if (b.slots.length <= n) return false;
  for (let k = 0; k < n; k++) if (a.slots[k] !== b.slots[k] || a.lits[k] !== b.lits[k]) return false;
  const last = a.lits[n] as string;
  return (b.lits[n] as string).startsWith(last.trimEnd());
}

/**
 * The commonest shapes, tried whole and with `%q` at each place; the one framing most printed prefixes wins. A
 * rarer shape must frame clearly more than a commoner one, unless it extends it: free text split at the spaces of
 * one value (`PostgreSQL JDBC Driver`) with `%q` near the end frames nearly every line by letting its extra values
 * swallow the pid and the literal text after them.
 */
function bestTemplate(prefixes: readonly string[]): Candidate | null {
  const byKey = new Map<string, { shape: Shape; n: number }>();
  for (const p of prefixes) {
    const sh = cutPrefix(p);
    const k = shapeKey(sh);
    const e = byKey.get(k);
    if (e) e.n++;
    else byKey.set(k, { shape: sh, n: 1 });
  }
  const shapes = [...byKey.values()].sort((a, b) => b.n - a.n || b.shape.slots.length - a.shape.slots.length);
  // The commonest few, and the ones with the most values among those seen twice (client lines carry every value).
  const maxSlots = Math.max(...shapes.filter((s) => s.n >= 2 || shapes.length === 1).map((s) => s.shape.slots.length), 0);
  const tried = [...shapes.slice(0, 4), ...shapes.filter((s) => s.shape.slots.length === maxSlots).slice(0, 2)];
  let best: Candidate | null = null;
  const seen = new Set<string>();
  const margin = Math.max(2, Math.ceil(0.01 * prefixes.length));
  for (const { shape, n } of tried) {
    const key = shapeKey(shape);
    if (seen.has(key)) continue;
    seen.add(key);
    const re = trialRegex(shape, null);
    const missed = prefixes.filter((p) => !re.test(p));
    const whole = prefixes.length - missed.length;
    let cand: Candidate = { shape, cut: null, framed: whole };
    if (whole > 0) {
      const c = bestCut(shape, missed.length, (cut) => countMatches(trialRegex(shape, cut), missed), null, 0);
      if (c.framed > 0) cand = { shape, cut: c.cut, framed: whole + c.framed };
    }
    const seenOften = n > margin;
    if (best === null || cand.framed > best.framed + margin || (seenOften && cand.framed > best.framed && extendsShape(shape, best.shape))) best = cand;
  }
  return best;
}

interface Row {
  /** Index into the prefixed lines. */
  line: number;
  values: (string | undefined)[];
}

/** Values of each slot on every printed prefix the template frames (undefined after an absent `%q` part). */
function slotValues(sh: Shape, cut: Cut | null, prefixes: readonly string[]): Row[] {
  const re = trialRegex(sh, cut);
  const out: Row[] = [];
  prefixes.forEach((p, line) => {
    const m = re.exec(p);
    if (m !== null) out.push({ line, values: sh.slots.map((_, k) => m[k + 1]) });
  });
  return out;
}

/** The key word in the literal text just before a slot (`user=` → user), lower-cased. */
function keyBefore(lit: string): string | null {
  const m = /([\p{L}_]+)\s*[=:]?\s*$/u.exec(lit);
  if (m === null) return null;
  const before = lit.slice(0, lit.length - m[0].length);
  // `%u@%d`: the word after `@` is a value's, not a key.
  if (before.endsWith('@')) return null;
  return (m[1] as string).toLowerCase();
}

const CONNECTION_AUTHORIZED = /^connection authorized: user=(\S+)(?: database=(\S+))?(?: application_name=(.+?))?(?: SSL enabled.*| GSS.*)?$/;

/** Names each slot's escape from its values across the framed lines (see the header). */
function nameSlots(sh: Shape, rows: Array<{ line: number; values: (string | undefined)[] }>, messages: readonly string[]): string[] {
  const letters: (string | null)[] = sh.slots.map(() => null);
  const taken = new Set<string>();
  const give = (k: number, letter: string): void => { letters[k] = letter; taken.add(letter); };
  const col = (k: number): string[] => rows.map((r) => r.values[k]).filter((v): v is string => v !== undefined);

  // Values that name themselves.
  sh.slots.forEach((slot, k) => {
    if (slot === 'm' || slot === 'n' || slot === 'c' || slot === 'v' || slot === 'b' || slot === 'e' || slot === 'r') give(k, slot);
  });
  // Keys written before the value.
  sh.slots.forEach((slot, k) => {
    if (letters[k] !== null) return;
    const key = keyBefore(sh.lits[k] as string);
    const letter = key === null ? undefined : KEY_ESCAPE[key];
    if (letter === undefined || taken.has(letter)) return;
    if (slot === 'int' && !'plxQPe'.includes(letter)) return;
    if (slot === 't' && letter !== 't' && letter !== 's') return;
    give(k, letter);
  });
  // Times: with %m or a second time, the time that stays the same within a process is the session start.
  const times = sh.slots.map((s, k) => (s === 't' && letters[k] === null ? k : -1)).filter((k) => k >= 0);
  for (const k of times) give(k, taken.has('m') || taken.has('n') || taken.has('t') || times.length > 1 && k !== times[0] ? 's' : 't');

  // Numbers: the pid (inside %c, or the one a line counter counts by), the line counter, then xid or query id.
  const ints = sh.slots.map((s, k) => (s === 'int' && letters[k] === null ? k : -1)).filter((k) => k >= 0);
  if (!taken.has('p')) {
    // A lock-wait line names its own pid.
    const said = rows.map((r) => ({ r, pid: OWN_PID.match(messages[r.line] ?? '')?.args[0] })).filter((x) => x.pid !== undefined);
    const k = ints.find((j) => said.length > 0 && said.filter((x) => x.r.values[j] === x.pid).length >= 0.9 * said.length);
    if (k !== undefined) give(k, 'p');
  }
  const sidSlot = letters.indexOf('c');
  if (!taken.has('p') && sidSlot >= 0) {
    for (const k of ints) {
      const agree = rows.filter((r) => r.values[k] !== undefined && r.values[sidSlot] !== undefined
        && parseInt((r.values[sidSlot] as string).split('.')[1] ?? '', 16) === Number(r.values[k])).length;
      if (agree > 0 && agree >= 0.9 * rows.filter((r) => r.values[sidSlot] !== undefined).length) { give(k, 'p'); break; }
    }
  }
  const free = (): number[] => ints.filter((k) => letters[k] === null);
  if (!taken.has('l') && free().length >= 2 || (!taken.has('l') && taken.has('p') && free().length >= 1)) {
    let bestPair: [number, number, number] | null = null;
    const pidSlots = taken.has('p') ? [letters.indexOf('p')] : free();
    for (const a of pidSlots) {
      for (const b of free()) {
        if (a === b) continue;
        const last = new Map<string, number>();
        let pairs = 0;
        let steps = 0;
        let startsAtOne = 0;
        for (const r of rows) {
          const pa = r.values[a];
          const lb = r.values[b];
          if (pa === undefined || lb === undefined) continue;
          const prev = last.get(pa);
          if (prev !== undefined) { pairs++; if (Number(lb) > prev) steps++; } else if (lb === '1') startsAtOne++;
          last.set(pa, Number(lb));
        }
        // A line counter grows within a process (by one, unless lines were filtered out) and starts at 1 in every process
        // that starts in the log; pids handed out one after another (a container) also grow within one line number,
        // but over far fewer pairs.
        const score = steps + 2 * startsAtOne;
        if (pairs >= 2 && steps >= 0.9 * pairs && (bestPair === null || score > bestPair[2])) bestPair = [a, b, score];
      }
    }
    if (bestPair !== null) {
      if (!taken.has('p')) give(bestPair[0], 'p');
      give(bestPair[1], 'l');
    }
  }
  if (!taken.has('p')) {
    // The number with the most different values (a pid is never 0).
    let best = -1;
    let most = 0;
    for (const k of free()) {
      const values = col(k);
      const distinct = new Set(values).size;
      if (values.every((v) => /^\d+$/.test(v) && v !== '0') && distinct > most) { best = k; most = distinct; }
    }
    if (best >= 0) give(best, 'p');
  }
  for (const k of free()) {
    const values = col(k);
    const big = values.some((v) => v.startsWith('-') || Number(v) > 4294967295);
    if (big && !taken.has('Q')) give(k, 'Q');
    else if (!taken.has('x')) give(k, 'x');
    else if (!taken.has('Q')) give(k, 'Q');
    else if (!taken.has('l')) give(k, 'l');
    else give(k, 'x');
  }

  // Free text: addresses, command tags and application names by their values, `user@db`, what connections said.
  const frees = sh.slots.map((s, k) => ((s === 'free' || s === 'h') && letters[k] === null ? k : -1)).filter((k) => k >= 0);
  const known = (k: number): string[] => col(k).filter((v) => v !== '' && !/^\[[^\]]*\]$/.test(v));
  for (const k of frees) {
    const vs = known(k);
    const hostLike = col(k).filter((v) => v !== '').every((v) => /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*::[0-9a-fA-F:.]*|\[local\])$/.test(v));
    if (sh.slots[k] === 'h' || (hostLike && col(k).some((v) => v !== ''))) {
      if (!taken.has('h')) give(k, 'h');
      else if (!taken.has('r')) give(k, 'r');
    } else if (vs.length > 0 && vs.filter((v) => COMMAND_TAGS.test(v)).length >= 0.6 * vs.length && !taken.has('i')) give(k, 'i');
  }
  const conn = new Map<string, { u: string; d: string | undefined; a: string | undefined }>();
  const pidSlot = letters.indexOf('p');
  if (pidSlot >= 0) {
    for (const r of rows) {
      const m = CONNECTION_AUTHORIZED.exec(messages[r.line] ?? '');
      const pid = r.values[pidSlot];
      if (m !== null && pid !== undefined) conn.set(pid, { u: m[1] as string, d: m[2], a: m[3] });
    }
  }
  if (conn.size > 0) {
    for (const letter of ['a', 'u', 'd'] as const) {
      let best = -1;
      let hits = 0;
      for (const k of frees) {
        if (letters[k] !== null) continue;
        let n = 0;
        for (const r of rows) {
          const c = conn.get(r.values[pidSlot] ?? '');
          const v = r.values[k];
          if (c !== undefined && v !== undefined && v !== '' && v === c[letter]) n++;
        }
        if (n > hits) { best = k; hits = n; }
      }
      if (best >= 0 && !taken.has(letter)) give(best, letter);
    }
  }
  for (const k of frees) {
    if (letters[k] !== null) continue;
    if ((sh.lits[k + 1] ?? '').startsWith('@') && !taken.has('u')) give(k, 'u');
    else if ((sh.lits[k] ?? '').endsWith('@') && !taken.has('d')) give(k, 'd');
  }
  const rest = (): number[] => frees.filter((k) => letters[k] === null);
  if (!taken.has('a')) {
    const named = rest().find((k) => known(k).length > 0 && known(k).filter((v) => APP_NAMES.test(v)).length >= 0.5 * known(k).length);
    if (named !== undefined) give(named, 'a');
  }
  if (!taken.has('a') && rest().length >= 2 && (!taken.has('u') || !taken.has('d'))) {
    // Of user, database and application, the application changes most from session to session: clearly most.
    const distinct = rest().map((k) => [k, new Set(known(k)).size] as const).sort((x, y) => y[1] - x[1]);
    const [first, second] = distinct;
    if (first !== undefined && first[1] >= 3 && first[1] >= 2 * (second?.[1] ?? 0)) give(first[0], 'a');
  }
  for (const k of rest()) {
    const next = ['u', 'd', 'a', 'h', 'i'].find((l) => !taken.has(l));
    give(k, next ?? 'a');
  }
  return letters.map((l) => l ?? 'a');
}

/** `[%l-1]`: a number glued after a dash that is 1 on every line is literal text (pgBadger's recommended prefix). */
function foldGluedOnes(sh: Shape, rows: Array<{ values: (string | undefined)[] }>): Shape {
  const lits = [sh.lits[0] as string];
  const slots: Slot[] = [];
  sh.slots.forEach((slot, k) => {
    const values = rows.map((r) => r.values[k]).filter((v) => v !== undefined);
    if (slot === 'int' && lits[lits.length - 1]?.endsWith('-') && values.length > 0 && values.every((v) => v === '1')) {
      lits[lits.length - 1] += `1${sh.lits[k + 1] as string}`;
    } else {
      slots.push(slot);
      lits.push(sh.lits[k + 1] as string);
    }
  });
  return { lits, slots };
}

/**
 * Where `%q` goes when the sample says nothing: right before the first session-only value, where the docs put it
 * (`%m [%p] %q%u@%d `). Without a %q in the server's prefix, its background lines print that part with empty values,
 * which the optional part still matches.
 */
function defaultCut(sh: Shape, letters: readonly string[]): Cut | null {
  const k = letters.findIndex((l) => SESSION_ONLY.has(l));
  return k < 0 ? null : [k, (sh.lits[k] as string).length];
}

/**
 * Finds the log_line_prefix of stderr `lines` (a log's first lines, without their line breaks), or says which lines no
 * prefix frames. `offsets` are the lines' byte offsets, for naming them.
 */
export function detectPrefix(lines: readonly string[], offsets: readonly number[] = []): PrefixDetection {
  /** Lines that start a line of their own, and for those that end a prefix with a head word, the line up to its text. */
  const starts: Array<{ i: number; upToText: string | null }> = [];
  const prefixes: string[] = [];
  const heads: string[] = [];
  const messages: string[] = [];
  for (let i = 0; i < lines.length && starts.length < DETECT_MAX_LINES; i++) {
    const l = lines[i] as string;
    if (l === '' || l.charCodeAt(0) === 9 || l.charCodeAt(0) === 32) continue;
    const at = headPosition(l);
    const head = at < 0 ? null : readHead(l, at);
    starts.push({ i, upToText: head === null ? null : l.slice(0, head.textStart) });
    if (head === null) continue;
    prefixes.push(l.slice(0, at));
    heads.push(l.slice(0, head.textStart));
    messages.push(l.slice(head.textStart));
  }
  const unframedOf = (framed: (upToText: string) => boolean): UnframedLine[] => {
    const out: UnframedLine[] = [];
    for (const s of starts) {
      if (out.length >= 5) break;
      if (s.upToText !== null && framed(s.upToText)) continue;
      out.push({ line: s.i + 1, offset: offsets[s.i] ?? -1, text: (lines[s.i] as string).slice(0, 200) });
    }
    return out;
  };
  const none = (): PrefixDetection => ({ prefix: null, lines: starts.length, prefixed: prefixes.length, framed: 0, unframed: unframedOf(() => false) });
  if (prefixes.length === 0) return none();
  const best = bestTemplate(prefixes.slice(0, TRIAL_LINES));
  if (best === null || best.framed === 0) return none();
  const shape = foldGluedOnes(best.shape, slotValues(best.shape, best.cut, prefixes));
  const plain = trialRegex(shape, null);
  const missedPrefixes = prefixes.filter((p) => !plain.test(p));
  const trialCut = bestCut(shape, missedPrefixes.length, (cut) => countMatches(trialRegex(shape, cut), missedPrefixes), null, 0).cut;
  const letters = nameSlots(shape, slotValues(shape, trialCut, prefixes), messages);
  // A prefix without a time cannot place its entries (syslog and journald lines carry theirs in a form PostgreSQL never prints).
  if (!letters.some((l) => l === 'm' || l === 't' || l === 'n')) return none();
  // `%q` where processes without a session stop their prefix: the usual place (before the first session-only value,
  // after a space) unless another frames clearly more (not just a stray line of an earlier prefix).
  const whole = compilePrefix(render(shape, letters, null));
  const missed = heads.filter((h) => whole.match(h) === null);
  const usual = defaultCut(shape, letters);
  const margin = Math.max(1, Math.ceil(0.005 * heads.length));
  const c = bestCut(shape, missed.length, (cut) => countFramed(compilePrefix(render(shape, letters, cut)), missed), usual, margin);
  const prefix = render(shape, letters, c.cut);
  const matcher = compilePrefix(prefix);
  const framed = countFramed(matcher, heads);
  // Most lines must fit: a template found in a few lines of another log's framing is no prefix.
  if (framed < 0.5 * prefixes.length) return none();
  return { prefix, lines: starts.length, prefixed: prefixes.length, framed, unframed: unframedOf((t) => matcher.match(t) !== null) };
}
