// Where an event's properties are in its bytes, as the framer (framing.ts) finds them: per property the name's
// range, the value's range (inside the quotes for a quoted value) and flags saying what reading the value must undo.
// Offsets are from the event's first byte, so they stay true when the framer's window moves.

/** The quoted value holds a doubled `'` (or `"`): each pair is one quote of the value (docs/tj-format.md §3.1). */
export const DOUBLED_SQUOTE = 1;
export const DOUBLED_DQUOTE = 2;
/** The quoted value holds CRLF, which is read as LF (set by the scanner, event-scanner.ts, not by the framer). */
export const CRLF_INSIDE = 4;
/** The value was quoted. */
export const QUOTED = 8;

/** Where each number of a property sits among its STRIDE. */
const At = { nameStart: 0, nameEnd: 1, valueStart: 2, valueEnd: 3, flags: 4 } as const;
const STRIDE = 5;

export class PropertyRanges {
  count = 0;
  /** STRIDE numbers a property: name start, name end, value start, value end, flags. */
  private list = new Int32Array(64 * STRIDE);

  nameStart(i: number): number { return this.list[i * STRIDE + At.nameStart] as number; }
  nameEnd(i: number): number { return this.list[i * STRIDE + At.nameEnd] as number; }
  valueStart(i: number): number { return this.list[i * STRIDE + At.valueStart] as number; }
  valueEnd(i: number): number { return this.list[i * STRIDE + At.valueEnd] as number; }
  flags(i: number): number { return this.list[i * STRIDE + At.flags] as number; }

  clear(): void {
    this.count = 0;
  }

  /** A property whose name is `[nameStart, nameEnd)` and whose unquoted value starts at `valueStart`. */
  add(nameStart: number, nameEnd: number, valueStart: number): void {
    let at = this.count * STRIDE;
    if (at + STRIDE > this.list.length) {
      const grown = new Int32Array(this.list.length * 2);
      grown.set(this.list);
      this.list = grown;
    }
    this.count++;
    const l = this.list;
    l[at++] = nameStart;
    l[at++] = nameEnd;
    l[at++] = valueStart;
    l[at++] = valueStart;
    l[at] = 0;
  }

  /** The last property's value is quoted: it starts at `start`, after the quote. */
  valueFrom(start: number): void {
    const at = (this.count - 1) * STRIDE;
    this.list[at + At.valueStart] = start;
    this.list[at + At.flags] = QUOTED;
  }

  /** The last property's value ends at `end`. */
  valueTo(end: number): void {
    this.list[(this.count - 1) * STRIDE + At.valueEnd] = end;
  }

  /** Adds flags to the last property. */
  flag(flags: number): void {
    this.flagAt(this.count - 1, flags);
  }

  /** Adds flags to property `i`. */
  flagAt(i: number, flags: number): void {
    const at = i * STRIDE + At.flags;
    this.list[at] = (this.list[at] as number) | flags;
  }
}
