// Framing of the TJ byte stream: finds where each event ends by following the quote state of property
// values across lines (docs/tj-format.md §2–3). It works on raw bytes so that a huge quoted value arriving
// in many chunks is scanned once (the quote search resumes where it stopped), and it never decodes text.
//
// Following the quote state means finding every property's name and value on the way, so the framer also records
// where they are (property-ranges.ts): the one pass over an event's bytes that every reader of TJ shares. The caller
// pulls what was found (`next`) instead of being called back, so a reader of TJ is a loop over this framer.
//
// A line outside any event that is not blank and does not start with a header is garbage; consecutive
// garbage lines form one error run. An event ends at the first line feed outside a quoted value.
//
// A quote closes its value only when a comma, a line end or the end of the input follows it (docs/tj-format.md
// §3.2): the 1C server doubles a quote inside a value, so a lone quote followed by other text is not the
// platform's but a splice, and it stays in the value. Such a value may never be closed; after a stray quote, a
// line that starts with an event header ends the event, so one broken value cannot swallow the events after it.
import { matchHeader, NEED_MORE, NO_HEADER } from './header.js';
import { GrowableBuffer } from './growable-buffer.js';
import { DOUBLED_DQUOTE, DOUBLED_SQUOTE, PropertyRanges } from './property-ranges.js';

const NO_BYTES = Buffer.alloc(0);

const State = {
  lineStart: 0,
  propName: 1,
  valueStart: 2,
  unquoted: 3,
  quoted: 4,
  garbage: 5,
} as const;
type State = (typeof State)[keyof typeof State];

const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const SQUOTE = 0x27;
const DQUOTE = 0x22;

const EQUALS_4 = EQUALS * 0x01010101;
const COMMA_4 = COMMA * 0x01010101;
const LF_4 = LF * 0x01010101;

/**
 * Skips the bytes from `p` four at a time while none of them is `a` or `b` (each given four times, as `a4`, `b4`):
 * returns where the byte-at-a-time search goes on. Names and unquoted values are about a dozen bytes, and a byte loop
 * over them was most of the framer's time. `view` sees the memory of `buf`, whose byte 0 is at `at` in it.
 */
function wordsWithout(view: DataView, at: number, p: number, end: number, a4: number, b4: number): number {
  while (p + 4 <= end) {
    const x = view.getInt32(at + p, true);
    const a = x ^ a4;
    const b = x ^ b4;
    // Word-at-a-time "has a zero byte": the high bit of a byte is set where `a` or `b` is.
    if ((((a - 0x01010101) & ~a) | ((b - 0x01010101) & ~b)) & 0x80808080) return p;
    p += 4;
  }
  return p;
}

/** A complete event: bytes [start, end) without the terminating line break. */
export interface Frame {
  start: number;
  end: number;
}

/** Bytes that belong to no event. `kind` tells why. */
export interface BadRun {
  kind: 'garbage_line' | 'unterminated_quote';
  start: number;
  end: number;
  /** For an unterminated quote: where the quote opened. */
  quoteAt?: number;
}

/** What `next` found. */
export const Found = {
  /** Nothing more until more bytes are pushed (or, after `end`, nothing more at all). */
  nothing: 0,
  /** An event: `frame`, `window`, `at`, `properties`, `strayQuote`. */
  frame: 1,
  /** Bytes of no event: `run`, `runBytes`. */
  bad: 2,
} as const;
export type Found = (typeof Found)[keyof typeof Found];

/**
 * Incremental TJ framer. Offsets are absolute file offsets; the first pushed byte sits at `origin`. Push bytes,
 * then call `next` until it finds nothing; `end` says no more bytes will come. What `next` found stays valid until
 * the next `push`.
 */
export class TjFramer {
  /** The last event found: its bytes are `window[at, at + frame.end - frame.start)`. */
  readonly frame: Frame = { start: 0, end: 0 };
  window: Buffer = Buffer.alloc(0);
  at = 0;
  /** Where the last event's property names and values are, as offsets in its bytes. */
  readonly properties = new PropertyRanges();
  /** The last event holds a quote followed by text (docs/tj-format.md §3.2): its properties are not as recorded. */
  strayQuote = false;
  /** The last bad run and its bytes. */
  run: BadRun = { kind: 'garbage_line', start: 0, end: 0 };
  runBytes: Buffer = Buffer.alloc(0);

  private readonly data = new GrowableBuffer();
  private state: State = State.lineStart;
  private pos: number; // absolute scan position
  private eventStart = -1;
  private garbageStart = -1;
  private quoteChar = 0;
  private quoteOpenedAt = 0;
  /** Absolute offset of the first quote in the open value that closed nothing (text followed it), or -1. */
  private strayQuoteAt = -1;
  /** Absolute offset where the name of the next property may begin (after the header or a value's comma). */
  private nameFrom = 0;
  private bomPending: boolean;
  private final = false;
  /** A view of the window's memory, for reading it four bytes at a time. */
  private view: DataView = new DataView(new ArrayBuffer(0));

  constructor(origin: number) {
    this.data.reset(origin);
    this.pos = origin;
    this.bomPending = origin === 0;
  }

  /** First absolute offset not yet accounted for by a frame, a bad run or skipped blank lines. */
  get settled(): number {
    if (this.eventStart >= 0) return this.eventStart;
    if (this.garbageStart >= 0) return this.garbageStart;
    return this.pos;
  }

  /**
   * Every byte pushed is accounted for by what `next` found, and the next one begins a line outside any event: a framer
   * started at `pushedEnd` finds from there on what this one finds (how `parse tj` in pieces knows that a cut fell
   * between events, cli/ndjson/tj-pieces.ts). Asked once `next` found nothing.
   */
  get betweenEvents(): boolean {
    return this.state === State.lineStart && this.eventStart < 0 && this.garbageStart < 0 && !this.bomPending && this.pos === this.data.end;
  }

  /** Absolute offset just after the last byte pushed; the window holds them up to here. */
  get pushedEnd(): number {
    return this.data.end;
  }

  /** The next bytes of the file. Ends the validity of what `next` found before. */
  push(chunk: Buffer): void {
    this.data.discardBefore(this.settled);
    this.data.append(chunk);
  }

  /** Reading stops for now: the window keeps only the bytes not yet settled (growable-buffer.ts), so a followed
   * file's window does not stay at its largest read's size between reads. What `next` found is no longer valid
   * (push ends it anyway), and its views would keep the old window alive beside the shrunk one. */
  idle(): void {
    this.data.discardBefore(this.settled);
    this.data.shrink();
    this.window = NO_BYTES;
    this.runBytes = NO_BYTES;
    if (this.view.buffer !== this.data.bytes.buffer) this.view = new DataView(NO_BYTES.buffer);
  }

  /** No more bytes will come: `next` then also hands over what is left open. */
  end(): void {
    this.final = true;
  }

  next(): Found {
    const found = this.scan(this.final);
    if (found !== Found.nothing || !this.final) return found;
    const end = this.data.end;
    if (this.state === State.quoted && this.strayQuoteAt < 0 && this.eventStart >= 0) return this.recoverFromOpenQuote();
    if (this.eventStart >= 0) {
      this.pos = this.emitFrame(end, end);
      return Found.frame;
    }
    this.pos = end;
    if (this.garbageStart >= 0) {
      this.flushGarbage(end);
      return Found.bad;
    }
    return Found.nothing;
  }

  // Positions inside scan are relative to the window (`buf[0]` is absolute offset `base`): measured
  // 2× faster than absolute positions through an accessor. Every return saves the position in `this.pos`.
  private scan(final: boolean): Found {
    const buf = this.data.bytes;
    const base = this.data.start;
    const end = this.data.end - base;
    const props = this.properties;
    if (buf.buffer !== this.view.buffer) this.view = new DataView(buf.buffer);
    const view = this.view;
    const at = buf.byteOffset;
    let p = this.pos - base;
    if (this.bomPending) {
      if (end - p < 3 && !final) return Found.nothing;
      this.bomPending = false;
      if (end - p >= 3 && buf[p] === 0xef && buf[p + 1] === 0xbb && buf[p + 2] === 0xbf) p += 3;
    }
    while (p < end) {
      switch (this.state) {
        case State.lineStart: {
          const b = buf[p];
          if (b === LF) { p++; continue; }
          if (b === CR) {
            if (p + 1 >= end) { if (!final) { this.pos = p + base; return Found.nothing; } p++; continue; }
            if (buf[p + 1] === LF) { p += 2; continue; }
          }
          const h = matchHeader(buf, p, end, final);
          if (h === NEED_MORE) { this.pos = p + base; return Found.nothing; }
          if (h === NO_HEADER) {
            if (this.garbageStart < 0) this.garbageStart = p + base;
            this.state = State.garbage;
            continue;
          }
          this.eventStart = p + base;
          this.nameFrom = h + base;
          this.strayQuote = false;
          props.clear();
          this.state = State.propName;
          if (this.garbageStart >= 0) {
            this.pos = h + base;
            this.flushGarbage(p + base);
            return Found.bad;
          }
          p = h;
          continue;
        }
        case State.garbage: {
          const nl = buf.indexOf(LF, p);
          if (nl < 0 || nl >= end) { p = end; continue; }
          p = nl + 1;
          this.state = State.lineStart;
          continue;
        }
        case State.propName: {
          // At `,` (after the header or a value) or inside a name: run to `=`; a line break ends the event.
          let q = wordsWithout(view, at, p, end, EQUALS_4, LF_4);
          let b = 0;
          while (q < end && (b = buf[q] as number) !== EQUALS && b !== LF) q++;
          if (q >= end) { p = end; continue; }
          if (b === LF) { this.pos = this.emitFrame(q + base, q + 1 + base); return Found.frame; }
          // The name starts after the commas before it (parsers/tj/properties.ts skips them too).
          let n = this.nameFrom - base;
          while (n < q && buf[n] === COMMA) n++;
          props.add(n + base - this.eventStart, q + base - this.eventStart, q + 1 + base - this.eventStart);
          p = q + 1;
          this.state = State.valueStart;
          continue;
        }
        case State.valueStart: {
          const b = buf[p] as number;
          if (b === SQUOTE || b === DQUOTE) {
            this.quoteChar = b;
            this.quoteOpenedAt = p + base;
            props.valueFrom(p + 1 + base - this.eventStart);
            p++;
            this.state = State.quoted;
          } else {
            this.state = State.unquoted;
          }
          continue;
        }
        case State.unquoted: {
          let q = wordsWithout(view, at, p, end, COMMA_4, LF_4);
          let b = 0;
          while (q < end && (b = buf[q] as number) !== COMMA && b !== LF) q++;
          if (q >= end) { p = end; continue; }
          if (b === LF) { this.pos = this.emitFrame(q + base, q + 1 + base); return Found.frame; }
          props.valueTo(q + base - this.eventStart);
          p = q + 1;
          this.nameFrom = p + base;
          this.state = State.propName;
          continue;
        }
        case State.quoted: {
          let close: number;
          if (this.strayQuoteAt < 0) {
            close = buf.indexOf(this.quoteChar, p);
            if (close < 0 || close >= end) { p = end; continue; }
          } else {
            // After a stray quote: stop at the next quote or line feed, and end the event before a header line.
            close = p;
            while (close < end && buf[close] !== this.quoteChar && buf[close] !== LF) close++;
            if (close >= end) { p = end; continue; }
            if (buf[close] === LF) {
              const h = matchHeader(buf, close + 1, end, final);
              if (h === NEED_MORE) { this.pos = close + base; return Found.nothing; }
              if (h >= 0 || close + 1 >= end) { this.pos = this.emitFrame(close + base, close + 1 + base); return Found.frame; }
              p = close + 1;
              continue;
            }
          }
          const next = close + 1 < end ? buf[close + 1] as number : -1;
          if (next === this.quoteChar) {
            props.flag(this.quoteChar === SQUOTE ? DOUBLED_SQUOTE : DOUBLED_DQUOTE);
            p = close + 2;
            continue;
          }
          if (next === COMMA) {
            this.closeQuoted(close + base);
            p = close + 2;
            this.nameFrom = p + base;
            this.state = State.propName;
            continue;
          }
          if (next === LF) { this.closeQuoted(close + base); this.pos = this.emitFrame(close + 1 + base, close + 2 + base); return Found.frame; }
          if (next === CR && close + 2 < end && buf[close + 2] === LF) {
            this.closeQuoted(close + base);
            this.pos = this.emitFrame(close + 1 + base, close + 3 + base);
            return Found.frame;
          }
          if (next < 0 || (next === CR && close + 2 >= end)) {
            // The byte that decides is not here yet; at the end of the input the quote closes the event.
            if (!final) { this.pos = close + base; return Found.nothing; }
            this.closeQuoted(close + base);
            p = end;
            this.nameFrom = p + base;
            this.state = State.propName;
            continue;
          }
          if (this.strayQuoteAt < 0) this.strayQuoteAt = close + base;
          this.strayQuote = true;
          p = close + 1;
          continue;
        }
      }
    }
    this.pos = p + base;
    return Found.nothing;
  }

  /** The quoted value being read ends at its closing quote, `close` (absolute). */
  private closeQuoted(close: number): void {
    this.properties.valueTo(close - this.eventStart);
    this.strayQuoteAt = -1;
  }

  /** Makes the event that ends at `frameEnd` (absolute, before the line break) the found frame; returns `next`. */
  private emitFrame(frameEnd: number, next: number): number {
    let e = frameEnd;
    if (e > this.eventStart && this.data.byteAt(e - 1) === CR) e--;
    // An unquoted value (or an empty one at the end of the input) runs to the end of the event.
    if (this.state === State.unquoted || this.state === State.valueStart) this.properties.valueTo(e - this.eventStart);
    this.frame.start = this.eventStart;
    this.frame.end = e;
    this.window = this.data.bytes;
    this.at = this.eventStart - this.data.start;
    this.eventStart = -1;
    this.strayQuoteAt = -1;
    this.state = State.lineStart;
    return next;
  }

  private flushGarbage(end: number): void {
    const start = this.garbageStart;
    this.garbageStart = -1;
    this.run = { kind: 'garbage_line', start, end };
    this.runBytes = this.data.slice(start, end);
  }

  /**
   * The file ended inside a quoted value. The event and everything after it up to the next line that
   * starts a header become one bad run; framing resumes at that line, so later events are kept.
   */
  private recoverFromOpenQuote(): Found {
    const start = this.eventStart;
    const base = this.data.start;
    const buf = this.data.bytes;
    const end = this.data.end;
    let resume = end;
    let nl = buf.indexOf(LF, this.quoteOpenedAt - base);
    while (nl >= 0 && nl + base < end) {
      const lineStart = nl + base + 1;
      if (lineStart < end && matchHeader(buf, lineStart - base, end - base, true) >= 0) { resume = lineStart; break; }
      nl = buf.indexOf(LF, lineStart - base);
    }
    this.run = { kind: 'unterminated_quote', start, end: resume, quoteAt: this.quoteOpenedAt };
    this.runBytes = this.data.slice(start, resume);
    this.eventStart = -1;
    this.state = State.lineStart;
    this.pos = resume;
    return Found.bad;
  }
}
