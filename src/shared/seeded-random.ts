/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence, so a run
 * with injected faults (lost packets, failing requests) can be repeated exactly. Not for secrets.
 */

/** A function returning numbers in [0, 1), as `Math.random`, from the 32-bit `seed`. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
