import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random.js';

describe('seededRandom', () => {
  it('repeats its sequence for a seed, differs between seeds, and stays in [0, 1)', () => {
    const take = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 1000 }, () => r());
    };
    const a = take(42);
    expect(take(42)).toEqual(a);
    expect(take(43)).not.toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    // Spread over the interval: each tenth holds some of a thousand draws.
    for (let d = 0; d < 10; d++) expect(a.some((x) => x >= d / 10 && x < (d + 1) / 10)).toBe(true);
  });
});
