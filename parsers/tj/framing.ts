// Framing of the TJ byte stream: finds where each event ends by following the quote state of property
// values across lines (docs/tj-format.md §2–3). It works on raw bytes so that a huge quoted value arriving
// in many chunks is scanned once (the quote search resumes where it stopped), and it never decodes text.
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

/** A complete event: bytes [start, end) without the terminating line break; `next` follows it. */
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

export interface FramingSink {
  /** The event's bytes are `window[at, at + frame.end - frame.start)`, valid only during the call. */
  frame(frame: Frame, window: Buffer, at: number): void;
  bad(run: BadRun, bytes: Buffer): void;
}

/**
 * Incremental TJ framer. Offsets are absolute file offsets; the first pushed byte sits at `origin`.
 * Pushing and finishing call the sink synchronously, in file order.
 */
export class TjFramer {
  private readonly data = new GrowableBuffer();
  private state: State = State.lineStart;
  private pos: number; // absolute scan position
  private eventStart = -1;
  private garbageStart = -1;
  private quoteChar = 0;
  private quoteOpenedAt = 0;
  /** Absolute offset of the first quote in the open value that closed nothing (text followed it), or -1. */
  private strayQuoteAt = -1;
  private bomPending: boolean;

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

  push(chunk: Buffer, sink: FramingSink): void {
    this.data.append(chunk);
    this.scan(false, sink);
    this.data.discardBefore(this.settled);
  }

  /** Reading stops for now: the window keeps only the bytes not yet framed (growable-buffer.ts). */
  idle(): void {
    this.data.shrink();
  }

  finish(sink: FramingSink): void {
    this.scan(true, sink);
    const end = this.data.end;
    if (this.state === State.quoted && this.strayQuoteAt < 0) {
      this.recoverFromOpenQuote(sink);
      return;
    }
    if (this.eventStart >= 0) {
      this.emitFrame(sink, end, end);
    } else if (this.garbageStart >= 0) {
      this.flushGarbage(sink, end);
    }
    this.pos = end;
  }

  // Positions inside scan are relative to the window (`buf[0]` is absolute offset `base`): measured
  // 2× faster than absolute positions through an accessor.
  private scan(final: boolean, sink: FramingSink): void {
    const buf = this.data.bytes;
    const base = this.data.start;
    const end = this.data.end - base;
    let p = this.pos - base;
    if (this.bomPending) {
      if (end - p < 3 && !final) return;
      this.bomPending = false;
      if (end - p >= 3 && buf[p] === 0xef && buf[p + 1] === 0xbb && buf[p + 2] === 0xbf) p += 3;
    }
    while (p < end) {
      switch (this.state) {
        case State.lineStart: {
          const b = buf[p];
          if (b === LF) { p++; continue; }
          if (b === CR) {
            if (p + 1 >= end) { if (!final) { this.pos = p + base; return; } p++; continue; }
            if (buf[p + 1] === LF) { p += 2; continue; }
          }
          const h = matchHeader(buf, p, end, final);
          if (h === NEED_MORE) { this.pos = p + base; return; }
          if (h === NO_HEADER) {
            if (this.garbageStart < 0) this.garbageStart = p + base;
            this.state = State.garbage;
            continue;
          }
          if (this.garbageStart >= 0) this.flushGarbage(sink, p + base);
          this.eventStart = p + base;
          p = h;
          this.state = State.propName;
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
          let q = p;
          let b = 0;
          while (q < end && (b = buf[q] as number) !== EQUALS && b !== LF) q++;
          if (q >= end) { p = end; continue; }
          if (b === LF) { p = this.emitFrame(sink, q + base, q + 1 + base) - base; continue; }
          p = q + 1;
          this.state = State.valueStart;
          continue;
        }
        case State.valueStart: {
          const b = buf[p] as number;
          if (b === SQUOTE || b === DQUOTE) {
            this.quoteChar = b;
            this.quoteOpenedAt = p + base;
            p++;
            this.state = State.quoted;
          } else {
            this.state = State.unquoted;
          }
          continue;
        }
        case State.unquoted: {
          let q = p;
          let b = 0;
          while (q < end && (b = buf[q] as number) !== COMMA && b !== LF) q++;
          if (q >= end) { p = end; continue; }
          if (b === LF) { p = this.emitFrame(sink, q + base, q + 1 + base) - base; continue; }
          p = q + 1;
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
              if (h === NEED_MORE) { this.pos = close + base; return; }
              if (h >= 0 || close + 1 >= end) { p = this.emitFrame(sink, close + base, close + 1 + base) - base; continue; }
              p = close + 1;
              continue;
            }
          }
          const next = close + 1 < end ? buf[close + 1] as number : -1;
          if (next === this.quoteChar) { p = close + 2; continue; }
          if (next === COMMA) { p = close + 2; this.strayQuoteAt = -1; this.state = State.propName; continue; }
          if (next === LF) { p = this.emitFrame(sink, close + 1 + base, close + 2 + base) - base; continue; }
          if (next === CR && close + 2 < end && buf[close + 2] === LF) { p = this.emitFrame(sink, close + 1 + base, close + 3 + base) - base; continue; }
          if (next < 0 || (next === CR && close + 2 >= end)) {
            // The byte that decides is not here yet; at the end of the input the quote closes the event.
            if (!final) { this.pos = close + base; return; }
            p = end;
            this.strayQuoteAt = -1;
            this.state = State.propName;
            continue;
          }
          if (this.strayQuoteAt < 0) this.strayQuoteAt = close + base;
          p = close + 1;
          continue;
        }
      }
    }
    this.pos = p + base;
  }

  private emitFrame(sink: FramingSink, frameEnd: number, next: number): number {
    let e = frameEnd;
    if (e > this.eventStart && this.data.byteAt(e - 1) === CR) e--;
    sink.frame({ start: this.eventStart, end: e }, this.data.bytes, this.eventStart - this.data.start);
    this.eventStart = -1;
    this.strayQuoteAt = -1;
    this.state = State.lineStart;
    return next;
  }

  private flushGarbage(sink: FramingSink, end: number): void {
    const start = this.garbageStart;
    this.garbageStart = -1;
    sink.bad({ kind: 'garbage_line', start, end }, this.data.slice(start, end));
  }

  /**
   * The file ended inside a quoted value. The event and everything after it up to the next line that
   * starts a header become one bad run; framing resumes at that line, so later events are kept.
   */
  private recoverFromOpenQuote(sink: FramingSink): void {
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
    sink.bad({ kind: 'unterminated_quote', start, end: resume, quoteAt: this.quoteOpenedAt }, this.data.slice(start, resume));
    this.eventStart = -1;
    this.state = State.lineStart;
    this.pos = resume;
    if (resume < end) this.finish(sink);
  }
}
