/**
 * A small, fast, seeded pseudo-random generator (sfc32, seeded through splitmix32) and the few
 * sampling helpers the synthetic inventory needs. Deterministic on every platform: the same seed
 * always gives the same sequence, which is what makes generated inventories reproducible.
 */

/** Mixes a 32-bit value into a well-distributed 32-bit value (splitmix32 finaliser). */
export function mix32(value: number): number {
  let z = (value + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A seeded random source. `next()` returns a uint32; the helpers build on it. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `stream` separates independent sequences derived from one seed (e.g. ids vs attributes). */
  constructor(seed: number, stream = 0) {
    this.a = mix32(seed ^ 0x5bd1e995);
    this.b = mix32(this.a ^ stream);
    this.c = mix32(this.b + 0x27d4eb2f);
    this.d = 1;
    // sfc32 needs a short warm-up so that close seeds diverge.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform uint32 (sfc32). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** true with the given probability. */
  chance(probability: number): boolean {
    return this.float() < probability;
  }

  /** Uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)] as T;
  }
}

/**
 * Picks items proportionally to their weights in O(log n) (binary search over cumulative
 * weights); built once per table.
 */
export class WeightedTable<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    private readonly items: readonly T[],
    weightOf: (item: T) => number,
  ) {
    if (items.length === 0) throw new Error('WeightedTable needs at least one item');
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    items.forEach((item, i) => {
      sum += weightOf(item);
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pick(random: SeededRandom): T {
    const target = random.float() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return this.items[low] as T;
  }
}
