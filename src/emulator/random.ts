/**
 * Deterministic randomness: a seeded PRNG for faults and latency, and a string hash for data
 * derived from node names (vitals, serial numbers), so a given seed always gives the same run.
 */

/** FNV-1a 32-bit hash of a string. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A PRNG (mulberry32) returning floats in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic values for one subject (a node name) under one seed. */
export class Derived {
  readonly #base: number;

  constructor(seed: number, subject: string) {
    this.#base = hashString(`${seed}:${subject}`);
  }

  /** An integer in [min, max], stable for (seed, subject, key). */
  int(key: string, min: number, max: number): number {
    const h = hashString(`${this.#base}:${key}`);
    return min + (h % (max - min + 1));
  }

  /** One of the choices, stable for (seed, subject, key). */
  pick<T>(key: string, choices: readonly T[]): T {
    const choice = choices[this.int(key, 0, choices.length - 1)];
    if (choice === undefined) throw new Error("pick from an empty list");
    return choice;
  }

  /** Hex digits, stable for (seed, subject, key). */
  hex(key: string, length: number): string {
    let out = "";
    for (let i = 0; out.length < length; i++)
      out += hashString(`${this.#base}:${key}:${i}`).toString(16).padStart(8, "0");
    return out.slice(0, length);
  }
}
