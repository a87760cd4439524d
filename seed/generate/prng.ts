/**
 * Seeded pseudo-random numbers for the data generator. Everything the
 * generator writes comes from these streams (never Math.random or the clock),
 * so two runs with the same seed write identical bytes.
 *
 * `fork(label)` derives an independent stream from the parent's seed and a
 * label, so adding an issuer or a plan does not shift the numbers drawn for
 * the others.
 */

/** xmur3 string hash: 32-bit seed material from any string. */
export function hashString(text: string): number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^= h >>> 16) >>> 0;
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: string) {
    this.a = hashString(`${seed}#a`);
    this.b = hashString(`${seed}#b`);
    this.c = hashString(`${seed}#c`);
    this.d = hashString(`${seed}#d`);
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** sfc32: small, fast, good enough for synthetic data. */
  nextUint32(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Float in [min, max). */
  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)];
  }

  /** `count` distinct items, in their original order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const n = Math.min(count, items.length);
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((x, y) => x - y).map((i) => items[i]);
  }

  fork(label: string): Prng {
    return new Prng(`${this.seed}/${label}`);
  }
}

/**
 * A uniform number in [0, 1) fixed by a tuple of integers: a stateless coin
 * for decisions made millions of times (is this drug on this plan's
 * formulary?) without keeping a stream per decision.
 */
export function unitHash(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return (h >>> 0) / 4294967296;
}
