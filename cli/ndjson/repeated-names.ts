// Whether a property name occurs twice in one TJ event, decided on its bytes: the byte path of tj-event-json.ts
// leaves such events to the string path, where propsObject gathers the values of a repeated name into an array.

const SLOTS = 256;
/** More names than this in one event: left to the string path rather than growing the table. */
const MAX_NAMES = SLOTS / 2;

/** An open-addressing set of byte ranges of one frame, emptied per event by bumping a generation. */
export class RepeatedNames {
  private readonly generation = new Int32Array(SLOTS);
  private readonly hash = new Int32Array(SLOTS);
  private readonly start = new Int32Array(SLOTS);
  private readonly end = new Int32Array(SLOTS);
  private current = 0;
  private count = 0;

  clear(): void {
    if (++this.current === 0x7fffffff) {
      this.generation.fill(0);
      this.current = 1;
    }
    this.count = 0;
  }

  /** Adds the name `f[s, e)` (with its hash); false if the event already had it, or has too many names. */
  add(f: Uint8Array, s: number, e: number, hash: number): boolean {
    if (++this.count > MAX_NAMES) return false;
    for (let slot = hash & (SLOTS - 1); ; slot = (slot + 1) & (SLOTS - 1)) {
      if (this.generation[slot] !== this.current) {
        this.generation[slot] = this.current;
        this.hash[slot] = hash;
        this.start[slot] = s;
        this.end[slot] = e;
        return true;
      }
      if (this.hash[slot] === hash && sameBytes(f, this.start[slot] as number, this.end[slot] as number, s, e)) return false;
    }
  }
}

function sameBytes(f: Uint8Array, as: number, ae: number, bs: number, be: number): boolean {
  if (ae - as !== be - bs) return false;
  for (let i = 0; i < ae - as; i++) if (f[as + i] !== f[bs + i]) return false;
  return true;
}
