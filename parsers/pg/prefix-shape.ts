// Cuts a printed log_line_prefix (the text before a line's severity word) into values and the literal text between
// them (docs/pg-format.md §3, "Finding the prefix"): each value by a shape of its own (a time with its zone, an epoch,
// a session id, a vxid, an address, a backend type, a SQLSTATE, a number, free text), punctuation and key words
// (`user=`) as literal text. One line at a time; prefix-detect.ts compares the cuts of many.
import { CATALOG } from './message-catalog.js';
import { BACKEND_TYPES } from './prefix.js';
import { readHead } from './severity-words.js';

export type Slot = 'm' | 't' | 'n' | 'c' | 'v' | 'b' | 'e' | 'r' | 'h' | 'int' | 'free';
export interface Shape {
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
const WORD = /[^\s[\](){}<>@,;:=|"'/]+/uy;
const INT = /-?\d+(?![\p{L}\d_])/uy;
/** `[unknown]` as printed before authentication (in any catalog language): a value, not literal brackets. */
const UNKNOWN_WORDS: readonly string[] = (CATALOG.find((r) => r[0] === '[unknown]') ?? ['[unknown]']).filter((w) => w !== '');
/** Words that name the value after them when followed by `=`, `:` or a space (`user=%u`, `pid:%p`). */
export const KEY_ESCAPE: Readonly<Record<string, string>> = {
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

const LETTER_OR_DIGIT = /[\p{L}\p{N}_]/u;
/** A letter, digit or `_` (ASCII without the regex: detection asks this of every character of 2,000 prefixes). */
function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
  return LETTER_OR_DIGIT.test(c);
}

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

/** `[%l-1]`: a number glued after a dash that is 1 on every line is literal text (pgBadger's recommended prefix). */
export function foldGluedOnes(sh: Shape, rows: Array<{ values: (string | undefined)[] }>): Shape {
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
