// The byte-level reader of a framed TJ event, shared by every reader that works on bytes: the row encoder
// (ingest/source/tj/tj-row-encoder.ts) and `parse tj`'s JSON writer (cli/ndjson/tj-event-json.ts). It reads the header
// from digits and names the properties the framer found (framing.ts, property-ranges.ts), without decoding a value;
// the reader then copies each value's bytes where it belongs.
//
// The rules are the string path's (tj-parser.ts with properties.ts and quoted-value.ts), which stays the reference
// and takes what this scanner declines: invalid UTF-8, the plain-placement time form, an unknown hour, a number past
// 15 digits, a depth not followed by a comma, text after a closing quote (§3.2: its properties are not what the
// framer recorded), a name of digits only (an object orders such keys first, docs/tj-format.md §3). The string path
// also writes the errors those events are worth.
import { isUtf8 } from 'node:buffer';
import type { TjFramer } from './framing.js';
import { hourStartUs } from './event-time.js';
import { CRLF_INSIDE, type PropertyRanges, QUOTED } from './property-ranges.js';
import { type TjName, TjNames } from './property-names.js';

/** A property whose name occurred before in the same event (flag beside property-ranges.ts's). */
export const REPEATED = 16;

const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const MAX_SAFE_DIGITS = 15;
const EMPTY = Buffer.alloc(0);

export class TjEventScanner<M> {
  readonly names: TjNames<M>;
  /** The event's bytes; every position below is an index into them. Valid until the framer's next push. */
  bytes: Buffer = EMPTY;
  /** File offset of the event's first byte. */
  offset = 0;
  /** End time (µs since the epoch, UTC), duration (µs) and depth of the header. */
  endUs = 0;
  durationUs = 0;
  depth = 0;
  /** The event's name (`CALL`, `DBPOSTGRS`…): `[nameStart, nameEnd)`, letters, digits and `_`. */
  nameStart = 0;
  nameEnd = 0;
  /**
   * Property `i` (below `ranges.count`) is named `propertyNames[i]`; its ranges and flags (QUOTED, DOUBLED_*,
   * CRLF_INSIDE, REPEATED) are in `ranges`.
   */
  readonly propertyNames: TjName<M>[] = [];
  ranges: PropertyRanges | null = null;
  /** Some name occurs more than once in the event. */
  repeats = false;
  private event = 0;
  private readonly hourUs: number | null;
  /** Absolute offsets `[validFrom, validTo)` known to be UTF-8; before `perEventUntil`, each event is checked alone. */
  private validFrom = 0;
  private validTo = 0;
  private perEventUntil = 0;
  /**
   * A view of the memory the event's bytes are in, and where in it `bytes[0]` is: for reading them four at a time
   * (names here, property-names.ts; JSON, cli/ndjson/json-text.ts). Made again only when the framer's window moves:
   * the `buffer` and `byteOffset` getters of a typed array are calls, too dear to make per event (profiled).
   */
  view: DataView = new DataView(new ArrayBuffer(0));
  viewAt = 0;
  private window: Buffer | null = null;
  private windowAt = 0;

  /** `meaningOf` is what the reader keeps beside each distinct property name (TjNames). */
  constructor(ctx: { hour: string | null; tz: string }, meaningOf: (name: string) => M) {
    this.hourUs = ctx.hour === null ? null : hourStartUs(ctx.hour, ctx.tz);
    this.names = new TjNames(meaningOf);
  }

  /**
   * Reading stops for now (the framer's `idle`): what `read` found is no longer valid, and its views would keep the
   * framer's last window alive beside the shrunk one, for every followed file (docs/write-path.md §7).
   */
  idle(): void {
    this.bytes = EMPTY;
    this.window = null;
    this.view = new DataView(EMPTY.buffer);
  }

  /** Reads the event `framer.next()` found last; false for an event the string path must take (see above). */
  read(framer: TjFramer): boolean {
    const hourUs = this.hourUs;
    const start = framer.at;
    const f = framer.window.subarray(start, start + framer.frame.end - framer.frame.start);
    const n = f.length;
    // Header `mm:ss.ffff[ff]-duration,EVENT,depth` (matchHeader checked its shape).
    if (hourUs === null || framer.strayQuote || n < 13 || f[2] !== 0x3a || !this.utf8(framer, f)) return false;
    const fracDigits = f[10] === 0x2d ? 4 : 6;
    let frac = 0;
    for (let i = 6; i < 6 + fracDigits; i++) frac = frac * 10 + digit(f, i);
    if (fracDigits === 4) frac *= 100;
    let p = 7 + fracDigits;
    const durationStart = p;
    let duration = 0;
    while (f[p] !== COMMA) duration = duration * 10 + digit(f, p++);
    if (p - durationStart > MAX_SAFE_DIGITS) return false;
    if (fracDigits === 4) duration *= 100; // 8.2: 1/10000 s
    if (!Number.isSafeInteger(duration)) return false;
    const nameStart = ++p;
    while (f[p] !== COMMA) p++;
    const nameEnd = p++;
    const depthStart = p;
    let depth = 0;
    for (let b = f[p] as number; p < n && b !== COMMA; b = f[++p] as number) {
      if (b < 0x30 || b > 0x39) return false; // the string path reads such a depth with Number()
      depth = depth * 10 + b - 48;
    }
    if (p - depthStart > MAX_SAFE_DIGITS) return false;

    const ranges = framer.properties;
    const count = ranges.count;
    const names = this.names;
    const list = this.propertyNames;
    const event = ++this.event;
    const hasCR = f.indexOf(CR) >= 0;
    if (framer.window !== this.window) {
      this.window = framer.window;
      this.view = new DataView(framer.window.buffer);
      this.windowAt = framer.window.byteOffset;
    }
    const view = this.view;
    const viewAt = this.windowAt + start;
    let repeats = false;
    let previous: TjName<M> | null = null;
    for (let i = 0; i < count; i++) {
      const name = names.get(f, view, viewAt, ranges.nameStart(i), ranges.nameEnd(i), previous);
      if (name.digitsOnly) return false;
      if (name.seenIn === event) { ranges.flagAt(i, REPEATED); repeats = true; } else name.seenIn = event;
      if (hasCR && (ranges.flags(i) & QUOTED) !== 0 && hasCrLf(f, ranges.valueStart(i), ranges.valueEnd(i))) ranges.flagAt(i, CRLF_INSIDE);
      list[i] = name;
      previous = name;
    }
    this.bytes = f;
    this.offset = framer.frame.start;
    this.endUs = hourUs + ((digit(f, 0) * 10 + digit(f, 1)) * 60 + digit(f, 3) * 10 + digit(f, 4)) * 1_000_000 + frac;
    this.durationUs = duration;
    this.depth = depth;
    this.nameStart = nameStart;
    this.nameEnd = nameEnd;
    this.ranges = ranges;
    this.repeats = repeats;
    this.viewAt = viewAt;
    return true;
  }

  /**
   * Whether the event's bytes are UTF-8. Checked for the window from the event to its last line feed at once (a line
   * feed never splits a character): a call per event was 0.1 s of 2 s for a 200 MB journal. When that stretch holds
   * invalid bytes, its events are checked one by one.
   */
  private utf8(framer: TjFramer, f: Buffer): boolean {
    const start = framer.frame.start;
    const end = framer.frame.end;
    if (start >= this.validFrom && end <= this.validTo) return true;
    if (end <= this.perEventUntil) return isUtf8(f);
    const window = framer.window;
    const base = start - framer.at;
    const last = window.lastIndexOf(LF, framer.pushedEnd - base - 1);
    const to = last + 1 + base;
    if (to < end) return isUtf8(f);
    if (isUtf8(window.subarray(framer.at, last + 1))) {
      this.validFrom = start;
      this.validTo = to;
      return true;
    }
    this.perEventUntil = to;
    return isUtf8(f);
  }
}

function digit(f: Buffer, i: number): number {
  return (f[i] as number) - 48;
}

function hasCrLf(f: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e - 1; i++) if (f[i] === CR && f[i + 1] === LF) return true;
  return false;
}
