// Finds a stderr log's `log_line_prefix` from its first lines, when nobody said which it is (docs/pg-format.md §3,
// "Finding the prefix"). Pure: text in, a prefix (or the lines that fit none) out.
//
// Every prefixed line ends its prefix with a severity or label word in one of the catalog languages (`LOG:  `,
// `СООБЩЕНИЕ:  `), so the text before the first such word is one printed prefix. Each printed prefix is cut into
// values and literal text (prefix-shape.ts). The commonest cuts become candidate templates; the one that frames the
// most lines wins, `%q` goes where the lines of processes without a session stop, and each value becomes the
// escape its values across all lines point to (prefix-names.ts).
import { BACKEND_TYPES, compilePrefix, type PrefixMatcher } from './prefix.js';
import { nameSlots, SESSION_ONLY, type Row } from './prefix-names.js';
import { cutPrefix, foldGluedOnes, headPosition, type Shape, type Slot } from './prefix-shape.js';
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
