// CityHash128 as of CityHash 1.0.2, the checksum of every ClickHouse compressed block (ClickHouse keeps that old
// version in contrib/cityhash102 for the block format; later CityHash versions give other values). No npm library
// offers this version (the `cityhash` package binds a newer CityHash through node-gyp and was last published years
// ago), so it is written here from the published algorithm. Test vectors are blocks ClickHouse itself wrote
// (cityhash128.test.ts), and the clients' own checks (clickhouse-go, the JDBC driver) read what this writes.
//
// 64-bit words are kept as two 32-bit halves in plain numbers, the high half of a helper's result in a typed array
// so that no half is boxed as a heap number: the same algorithm on BigInt hashed 6 MB/s, with the halves kept in
// object fields 12 MB/s (the collector busy with boxed numbers), this way about 30 MB/s on this machine. It hashes
// the compressed bytes, a third or less of the answer.

export interface Hash128 {
  low: bigint;
  high: bigint;
}

/** A typed array seen by TypeScript as its fixed slots (no `undefined` for an index in range). */
type Registers<N extends number> = { [K in N]: number };

/** The high half of the last helper's result; a typed array, so that no 64-bit half is boxed as a heap number. */
const HI = new Uint32Array(1) as unknown as Registers<0>;

/** (ah:al) * (bh:bl) mod 2^64. */
function mul(ah: number, al: number, bh: number, bl: number): number {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  HI[0] = (carry + Math.imul(al, bh) + Math.imul(ah, bl)) >>> 0;
  return ((mid << 16) | (p00 & 0xffff)) >>> 0;
}

function add(ah: number, al: number, bh: number, bl: number): number {
  const lo = al + bl;
  HI[0] = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
  return lo >>> 0;
}

function sub(ah: number, al: number, bh: number, bl: number): number {
  const lo = al - bl;
  HI[0] = (ah - bh - (lo < 0 ? 1 : 0)) >>> 0;
  return lo >>> 0;
}

/** Rotate right by 0 < n < 64. */
function rot(h: number, l: number, n: number): number {
  if (n === 32) { HI[0] = l; return h; }
  if (n > 32) { const t = h; h = l; l = t; n -= 32; }
  const lo = ((l >>> n) | (h << (32 - n))) >>> 0;
  HI[0] = ((h >>> n) | (l << (32 - n))) >>> 0;
  return lo;
}

/** v ^ (v >> 47). */
function shiftMix(h: number, l: number): number {
  HI[0] = h;
  return (l ^ (h >>> 15)) >>> 0;
}

const K0H = 0xc3a5c85c, K0L = 0x97cb3127;
const K1H = 0xb492b66f, K1L = 0xbe98f273;
const K2H = 0x9ae16a3b, K2L = 0x2f90404f;
const K3H = 0xc949d7c7, K3L = 0x509e6557;
const KMH = 0x9ddfea08, KML = 0xeb382d69;

/** Hash128to64(u, v). */
function hash16(uh: number, ul: number, vh: number, vl: number): number {
  let al = mul((uh ^ vh) >>> 0, (ul ^ vl) >>> 0, KMH, KML);
  let ah = HI[0];
  al = (al ^ (ah >>> 15)) >>> 0;
  let bl = mul((vh ^ ah) >>> 0, (vl ^ al) >>> 0, KMH, KML);
  let bh = HI[0];
  bl = (bl ^ (bh >>> 15)) >>> 0;
  return mul(bh, bl, KMH, KML);
}

class Bytes {
  private readonly view: DataView;
  constructor(readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  /** The little-endian word at `at`: low half returned, high half in HI[0]. */
  u64(at: number): number {
    HI[0] = this.view.getUint32(at + 4, true);
    return this.view.getUint32(at, true);
  }
  u32 = (at: number): number => this.view.getUint32(at, true);
}

function hashLen0to16(s: Bytes, at: number, len: number): number {
  if (len > 8) {
    const al = s.u64(at); const ah = HI[0];
    const bl = s.u64(at + len - 8); const bh = HI[0];
    let tl = add(bh, bl, 0, len); let th = HI[0];
    tl = rot(th, tl, len); th = HI[0];
    const rl = hash16(ah, al, th, tl); const rh = HI[0];
    HI[0] = (rh ^ bh) >>> 0;
    return (rl ^ bl) >>> 0;
  }
  if (len >= 4) {
    const a = s.u32(at);
    const xl = add(a >>> 29, (a << 3) >>> 0, 0, len); const xh = HI[0];
    return hash16(xh, xl, 0, s.u32(at + len - 4));
  }
  if (len > 0) {
    const y = (s.data[at] as number) + ((s.data[at + (len >> 1)] as number) << 8);
    const z = len + ((s.data[at + len - 1] as number) << 2);
    const yl = mul(0, y, K2H, K2L); const yh = HI[0];
    const zl = mul(0, z, K3H, K3L); const zh = HI[0];
    const ml = shiftMix((yh ^ zh) >>> 0, (yl ^ zl) >>> 0); const mh = HI[0];
    return mul(mh, ml, K2H, K2L);
  }
  HI[0] = K2H;
  return K2L;
}

/** ShiftMix(Fetch64(s + at) * k1) * k1. */
function mixedWord(s: Bytes, at: number): number {
  let xl = s.u64(at); let xh = HI[0];
  xl = mul(xh, xl, K1H, K1L); xh = HI[0];
  xl = shiftMix(xh, xl); xh = HI[0];
  return mul(xh, xl, K1H, K1L);
}

function cityMurmur(s: Bytes, at: number, len: number, sh: number, sl: number, th: number, tl: number): Hash128 {
  let ah = sh, al = sl, bh = th, bl = tl, ch: number, cl: number, dh: number, dl: number;
  let l = len - 16;
  if (l <= 0) {
    al = mul(ah, al, K1H, K1L); ah = HI[0];
    al = shiftMix(ah, al); ah = HI[0];
    al = mul(ah, al, K1H, K1L); ah = HI[0];
    const hl = hashLen0to16(s, at, len); const hh = HI[0];
    cl = mul(bh, bl, K1H, K1L); ch = HI[0];
    cl = add(ch, cl, hh, hl); ch = HI[0];
    let xl: number, xh: number;
    if (len >= 8) { xl = s.u64(at); xh = HI[0]; } else { xl = cl; xh = ch; }
    dl = add(ah, al, xh, xl); dh = HI[0];
    dl = shiftMix(dh, dl); dh = HI[0];
  } else {
    let xl = s.u64(at + len - 8); let xh = HI[0];
    xl = add(xh, xl, K1H, K1L); xh = HI[0];
    cl = hash16(xh, xl, ah, al); ch = HI[0];
    const yl = add(bh, bl, 0, len); const yh = HI[0];
    xl = s.u64(at + len - 16); xh = HI[0];
    const zl = add(ch, cl, xh, xl); const zh = HI[0];
    dl = hash16(yh, yl, zh, zl); dh = HI[0];
    al = add(ah, al, dh, dl); ah = HI[0];
    let p = at;
    do {
      xl = mixedWord(s, p); xh = HI[0];
      ah = (ah ^ xh) >>> 0; al = (al ^ xl) >>> 0;
      al = mul(ah, al, K1H, K1L); ah = HI[0];
      bh = (bh ^ ah) >>> 0; bl = (bl ^ al) >>> 0;
      xl = mixedWord(s, p + 8); xh = HI[0];
      ch = (ch ^ xh) >>> 0; cl = (cl ^ xl) >>> 0;
      cl = mul(ch, cl, K1H, K1L); ch = HI[0];
      dh = (dh ^ ch) >>> 0; dl = (dl ^ cl) >>> 0;
      p += 16;
      l -= 16;
    } while (l > 0);
  }
  al = hash16(ah, al, ch, cl); ah = HI[0];
  bl = hash16(dh, dl, bh, bl); bh = HI[0];
  const low = pair((ah ^ bh) >>> 0, (al ^ bl) >>> 0);
  const hl = hash16(bh, bl, ah, al);
  return { low, high: pair(HI[0], hl) };
}

const pair = (h: number, l: number): bigint => (BigInt(h) << 32n) | BigInt(l);

/** The state of the long-input loop (v, w, x, y, z as halves), indexed by these names. */
const [VH, VL, V2H, V2L, WH, WL, W2H, W2L, XH, XL, YH, YL, ZH, ZL] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;
type State = Registers<0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13>;

/** WeakHashLen32WithSeeds(s + at, a, b) → [first, second] written into `out` at index 0..3 (hi, lo, hi, lo). */
function weak32(s: Bytes, at: number, a0h: number, a0l: number, b0h: number, b0l: number, out: Registers<0 | 1 | 2 | 3>): void {
  const wl = s.u64(at); const wh = HI[0];
  const xl = s.u64(at + 8); const xh = HI[0];
  const yl = s.u64(at + 16); const yh = HI[0];
  const zl = s.u64(at + 24); const zh = HI[0];
  let al = add(a0h, a0l, wh, wl); let ah = HI[0];
  let bl = add(b0h, b0l, ah, al); let bh = HI[0];
  bl = add(bh, bl, zh, zl); bh = HI[0];
  bl = rot(bh, bl, 21); bh = HI[0];
  const cl = al, ch = ah;
  al = add(ah, al, xh, xl); ah = HI[0];
  al = add(ah, al, yh, yl); ah = HI[0];
  const rl = rot(ah, al, 44); const rh = HI[0];
  bl = add(bh, bl, rh, rl); bh = HI[0];
  out[1] = add(ah, al, zh, zl); out[0] = HI[0];
  out[3] = add(bh, bl, ch, cl); out[2] = HI[0];
}

const tmp = new Uint32Array(4) as unknown as Registers<0 | 1 | 2 | 3>;

function round(s: Bytes, at: number, st: State): void {
  let tl = add(st[XH], st[XL], st[YH], st[YL]); let th = HI[0];
  tl = add(th, tl, st[VH], st[VL]); th = HI[0];
  let fl = s.u64(at + 16); let fh = HI[0];
  tl = add(th, tl, fh, fl); th = HI[0];
  tl = rot(th, tl, 37); th = HI[0];
  st[XL] = mul(th, tl, K1H, K1L); st[XH] = HI[0];
  tl = add(st[YH], st[YL], st[V2H], st[V2L]); th = HI[0];
  fl = s.u64(at + 48); fh = HI[0];
  tl = add(th, tl, fh, fl); th = HI[0];
  tl = rot(th, tl, 42); th = HI[0];
  st[YL] = mul(th, tl, K1H, K1L); st[YH] = HI[0];
  st[XH] = (st[XH] ^ st[W2H]) >>> 0; st[XL] = (st[XL] ^ st[W2L]) >>> 0;
  st[YH] = (st[YH] ^ st[VH]) >>> 0; st[YL] = (st[YL] ^ st[VL]) >>> 0;
  st[ZL] = rot((st[ZH] ^ st[WH]) >>> 0, (st[ZL] ^ st[WL]) >>> 0, 33); st[ZH] = HI[0];
  const al = mul(st[V2H], st[V2L], K1H, K1L); const ah = HI[0];
  const bl = add(st[XH], st[XL], st[WH], st[WL]); const bh = HI[0];
  weak32(s, at, ah, al, bh, bl, tmp);
  st[VH] = tmp[0]; st[VL] = tmp[1]; st[V2H] = tmp[2]; st[V2L] = tmp[3];
  const cl = add(st[ZH], st[ZL], st[W2H], st[W2L]); const chh = HI[0];
  weak32(s, at + 32, chh, cl, st[YH], st[YL], tmp);
  st[WH] = tmp[0]; st[WL] = tmp[1]; st[W2H] = tmp[2]; st[W2L] = tmp[3];
  const zh = st[ZH], zl = st[ZL];
  st[ZH] = st[XH]; st[ZL] = st[XL];
  st[XH] = zh; st[XL] = zl;
}

function hash128WithSeed(s: Bytes, start: number, length: number, sh: number, sl: number, th: number, tl: number): Hash128 {
  if (length < 128) return cityMurmur(s, start, length, sh, sl, th, tl);
  let at = start;
  let len = length;
  const st = new Uint32Array(14) as unknown as State;
  st[XH] = sh; st[XL] = sl; st[YH] = th; st[YL] = tl;
  st[ZL] = mul(0, len, K1H, K1L); st[ZH] = HI[0];
  let rl = rot((st[YH] ^ K1H) >>> 0, (st[YL] ^ K1L) >>> 0, 49); let rh = HI[0];
  rl = mul(rh, rl, K1H, K1L); rh = HI[0];
  let fl = s.u64(at); let fh = HI[0];
  st[VL] = add(rh, rl, fh, fl); st[VH] = HI[0];
  rl = rot(st[VH], st[VL], 42); rh = HI[0];
  rl = mul(rh, rl, K1H, K1L); rh = HI[0];
  fl = s.u64(at + 8); fh = HI[0];
  st[V2L] = add(rh, rl, fh, fl); st[V2H] = HI[0];
  rl = add(st[YH], st[YL], st[ZH], st[ZL]); rh = HI[0];
  rl = rot(rh, rl, 35); rh = HI[0];
  rl = mul(rh, rl, K1H, K1L); rh = HI[0];
  st[WL] = add(rh, rl, st[XH], st[XL]); st[WH] = HI[0];
  fl = s.u64(at + 88); fh = HI[0];
  rl = add(st[XH], st[XL], fh, fl); rh = HI[0];
  rl = rot(rh, rl, 53); rh = HI[0];
  st[W2L] = mul(rh, rl, K1H, K1L); st[W2H] = HI[0];
  do {
    round(s, at, st);
    at += 64;
    round(s, at, st);
    at += 64;
    len -= 128;
  } while (len >= 128);
  rl = rot(st[WH], st[WL], 37); rh = HI[0];
  rl = mul(rh, rl, K0H, K0L); rh = HI[0];
  rl = add(rh, rl, st[ZH], st[ZL]); rh = HI[0];
  st[YL] = add(st[YH], st[YL], rh, rl); st[YH] = HI[0];
  rl = add(st[VH], st[VL], st[ZH], st[ZL]); rh = HI[0];
  rl = rot(rh, rl, 49); rh = HI[0];
  rl = mul(rh, rl, K0H, K0L); rh = HI[0];
  st[XL] = add(st[XH], st[XL], rh, rl); st[XH] = HI[0];
  for (let tail = 0; tail < len;) {
    tail += 32;
    rl = sub(st[YH], st[YL], st[XH], st[XL]); rh = HI[0];
    rl = rot(rh, rl, 42); rh = HI[0];
    rl = mul(rh, rl, K0H, K0L); rh = HI[0];
    st[YL] = add(rh, rl, st[V2H], st[V2L]); st[YH] = HI[0];
    fl = s.u64(at + len - tail + 16); fh = HI[0];
    st[WL] = add(st[WH], st[WL], fh, fl); st[WH] = HI[0];
    rl = rot(st[XH], st[XL], 49); rh = HI[0];
    rl = mul(rh, rl, K0H, K0L); rh = HI[0];
    st[XL] = add(rh, rl, st[WH], st[WL]); st[XH] = HI[0];
    st[WL] = add(st[WH], st[WL], st[VH], st[VL]); st[WH] = HI[0];
    weak32(s, at + len - tail, st[VH], st[VL], st[V2H], st[V2L], tmp);
    st[VH] = tmp[0]; st[VL] = tmp[1]; st[V2H] = tmp[2]; st[V2L] = tmp[3];
  }
  st[XL] = hash16(st[XH], st[XL], st[VH], st[VL]); st[XH] = HI[0];
  st[YL] = hash16(st[YH], st[YL], st[WH], st[WL]); st[YH] = HI[0];
  rl = add(st[XH], st[XL], st[V2H], st[V2L]); rh = HI[0];
  rl = hash16(rh, rl, st[W2H], st[W2L]); rh = HI[0];
  const lowL = add(rh, rl, st[YH], st[YL]); const lowH = HI[0];
  rl = add(st[XH], st[XL], st[W2H], st[W2L]); rh = HI[0];
  const ql = add(st[YH], st[YL], st[V2H], st[V2L]); const qh = HI[0];
  const highL = hash16(rh, rl, qh, ql);
  return { low: pair(lowH, lowL), high: pair(HI[0], highL) };
}

export function cityHash128(data: Uint8Array): Hash128 {
  const s = new Bytes(data);
  const len = data.length;
  if (len >= 16) {
    const al = s.u64(0); const ah = HI[0];
    const bl = s.u64(8); const bh = HI[0];
    return hash128WithSeed(s, 16, len - 16, (ah ^ K3H) >>> 0, (al ^ K3L) >>> 0, bh, bl);
  }
  if (len >= 8) {
    const ml = mul(0, len, K0H, K0L); const mh = HI[0];
    const al = s.u64(0); const ah = HI[0];
    const bl = s.u64(len - 8); const bh = HI[0];
    return hash128WithSeed(s, 0, 0, (ah ^ mh) >>> 0, (al ^ ml) >>> 0, (bh ^ K1H) >>> 0, (bl ^ K1L) >>> 0);
  }
  return hash128WithSeed(s, 0, len, K0H, K0L, K1H, K1L);
}
