/**
 * Seeded pseudo-random numbers for the sandbox data: small, fast and identical on every platform,
 * so that a seed always gives the same data set.
 */

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { imul, sqrt, log, sin, cos, floor } = Math;
const TWO_PI = 2 * Math.PI;

/** splitmix32's output mix: a good 32-bit avalanche, also used as a hash step. */
function mix(value: number): number {
  let z = value | 0;
  z ^= z >>> 16;
  z = imul(z, 0x21f0aaad);
  z ^= z >>> 15;
  z = imul(z, 0x735a2d97);
  z ^= z >>> 15;
  return z >>> 0;
}

/** A 32-bit hash of a string (FNV-1a, then mixed), optionally salted with a seed. */
export function hashString(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ mix(seed)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return mix(h);
}

/** A 32-bit hash of up to four integers: the stateless way to derive a value from (seed, instrument, index). */
export function hashInts(a: number, b = 0, c = 0, d = 0): number {
  return hashLast(hashFirstThree(a, b, c), d);
}

/** hashInts in two steps, for loops over the last integer: `hashLast(hashFirstThree(a, b, c), d) === hashInts(a, b, c, d)`. */
export function hashFirstThree(a: number, b: number, c: number): number {
  return hashThird(hashFirstTwo(a, b), c);
}

export function hashLast(firstThree: number, d: number): number {
  return mix(firstThree ^ mix(d + 0x6a09e667));
}

/** hashFirstThree in two steps, for loops over the third integer: `hashThird(hashFirstTwo(a, b), c) === hashFirstThree(a, b, c)`. */
export function hashFirstTwo(a: number, b: number): number {
  return mix(mix(0x9e3779b9 ^ mix(a + 0x6a09e667)) ^ mix(b + 0x6a09e667));
}

export function hashThird(firstTwo: number, c: number): number {
  return mix(firstTwo ^ mix(c + 0x6a09e667));
}

/** A number in [0, 1) from a 32-bit hash. */
export function unitOf(hash: number): number {
  return (hash >>> 0) / 4294967296;
}

/** A sequential generator (splitmix32) with the helpers the generator needs. */
export class Random {
  private state: number;
  /** Box-Muller's second value, valid while hasSpare: a number field of one kind, which the walk's inner loop keeps fast. */
  private spareNormal = 0;
  private hasSpare = false;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** A new, independent generator for a named part (so adding draws to one part never shifts another). */
  fork(label: string | number): Random {
    const salt = typeof label === "number" ? hashInts(label) : hashString(label);
    return new Random(hashInts(this.state, salt));
  }

  uint32(): number {
    this.state = (this.state + 0x9e3779b9) | 0;
    return mix(this.state);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform in [min, max). */
  float(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Random.pick: no items to pick from");
    return items[floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let target = this.next() * total;
    for (const [value, weight] of choices) {
      target -= weight;
      if (target < 0) return value;
    }
    const last = choices[choices.length - 1];
    if (last === undefined) throw new Error("Random.weighted: no choices");
    return last[0];
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = floor(this.next() * (i + 1));
      const swap = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = swap;
    }
    return copy;
  }

  /** Standard normal (Box-Muller, the second value kept for the next call). */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spareNormal;
    }
    const u = 1 - this.next();
    const v = this.next();
    const radius = sqrt(-2 * log(u));
    this.spareNormal = radius * sin(TWO_PI * v);
    this.hasSpare = true;
    return radius * cos(TWO_PI * v);
  }
}
