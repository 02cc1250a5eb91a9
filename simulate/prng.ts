// A small seeded PRNG (mulberry32) so the simulator writes the same bytes for the same seed on every machine.
// Math.random cannot be seeded; mulberry32 is 32-bit state, fast and good enough for test data (not for crypto).

export interface Prng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** Exponentially distributed value with the given mean: think times and latencies have long tails. */
  exp(mean: number): number;
  /** Lower-case hex string of `length` digits. */
  hex(length: number): string;
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    exp: (mean) => -Math.log(1 - next()) * mean,
    hex: (length) => {
      let out = '';
      while (out.length < length) out += Math.floor(next() * 0x10000).toString(16).padStart(4, '0');
      return out.slice(0, length);
    },
  };
}
