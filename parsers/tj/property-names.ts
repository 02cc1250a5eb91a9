// Property names of TJ events looked up by their bytes: a reader of a framed event (event-scanner.ts) gets each
// name once as a string and keeps what it needs to know about it (its `meaning`: a column, a JSON key) beside it.
// A journal uses some hundred distinct names, each decoded once.

export interface TjName<M> {
  readonly bytes: Buffer;
  /** The bytes as little-endian 32-bit words from the start, and the last four bytes as one (names of 4+ bytes). */
  readonly words: Int32Array;
  readonly lastWord: number;
  readonly name: string;
  /** Digits only, not empty: a JavaScript object puts such keys first, whatever their place in the event. */
  readonly digitsOnly: boolean;
  /** Holds `#`, the separator tj_events uses for a repeated name's later values (`Usr#2`). */
  readonly hasHash: boolean;
  /** What the reader that interned it made of the name (TjNames' `meaningOf`). */
  readonly meaning: M;
  /** Number of the event that last used this name: a repeat within one event is found without a set. */
  seenIn: number;
  /** The name that followed this one the last time: events of a kind list their names in the same order. */
  after: TjName<M> | null;
  /** The next name with the same hash. */
  readonly next: TjName<M> | null;
}

/** FNV-1a over `buf[start, end)`. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (buf[i] as number), 0x01000193);
  return h >>> 0;
}

/** Whether `a` equals `b[start, end)`: a loop, since a native compare costs more than a short name (profiled). */
function sameBytes(a: Buffer, b: Uint8Array, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[start + i]) return false;
  return true;
}

/**
 * Whether `name` is the bytes at `view[at, at + length)`, four bytes at a time: a name is a dozen bytes, and a byte
 * loop here was a fifth of the scanner's time.
 */
function sameName<M>(name: TjName<M>, view: DataView, at: number, length: number): boolean {
  const bytes = name.bytes;
  if (bytes.length !== length) return false;
  if (length < 4) {
    for (let i = 0; i < length; i++) if (bytes[i] !== view.getUint8(at + i)) return false;
    return true;
  }
  const words = name.words;
  for (let i = 0; i < words.length; i++) if (view.getInt32(at + i * 4, true) !== words[i]) return false;
  return view.getInt32(at + length - 4, true) === name.lastWord;
}

export class TjNames<M> {
  readonly #byHash = new Map<number, TjName<M>>();
  /** The first name of the last event: the guess for the first name of the next. */
  #first: TjName<M> | null = null;

  constructor(private readonly meaningOf: (name: string) => M) {}

  /**
   * The name at `buf[start, end)`; `view` sees the memory of `buf`, whose byte 0 is at `viewAt` in it. `previous` is the name before it in the same event
   * (null for the first). The name that followed `previous` last time is tried first: it is right for nine properties
   * in ten, so a lookup is usually one comparison and no hash.
   */
  get(buf: Buffer, view: DataView, viewAt: number, start: number, end: number, previous: TjName<M> | null): TjName<M> {
    const guess = previous === null ? this.#first : previous.after;
    if (guess !== null && sameName(guess, view, viewAt + start, end - start)) return guess;
    const name = this.lookup(buf, start, end);
    if (previous === null) this.#first = name;
    else previous.after = name;
    return name;
  }

  private lookup(buf: Buffer, start: number, end: number): TjName<M> {
    const hash = hashBytes(buf, start, end);
    const first = this.#byHash.get(hash) ?? null;
    for (let n = first; n !== null; n = n.next) if (sameBytes(n.bytes, buf, start, end)) return n;
    const bytes = Buffer.from(buf.subarray(start, end));
    const name = bytes.toString('utf8');
    const words = new Int32Array(bytes.length >> 2);
    for (let i = 0; i < words.length; i++) words[i] = bytes.readInt32LE(i * 4);
    const entry: TjName<M> = {
      bytes, words, lastWord: bytes.length >= 4 ? bytes.readInt32LE(bytes.length - 4) : 0, name, digitsOnly: /^\d+$/.test(name), hasHash: name.includes('#'), meaning: this.meaningOf(name),
      seenIn: 0, after: null, next: first,
    };
    this.#byHash.set(hash, entry);
    return entry;
  }
}
