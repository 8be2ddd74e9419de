import { describe, expect, it } from 'vitest';
import { parseDelay, pickDelay } from './delay.js';

describe('parseDelay', () => {
  it('reads numbers, strings and ranges', () => {
    expect(parseDelay(undefined)).toEqual([0, 0]);
    expect(parseDelay(2)).toEqual([2, 2]);
    expect(parseDelay('0.5')).toEqual([0.5, 0.5]);
    expect(parseDelay('1:5')).toEqual([1, 5]);
    expect(parseDelay('1,5')).toEqual([1, 5]);
  });
  it('rejects bad values naming the key', () => {
    expect(() => parseDelay('x', 'fake_power_delay')).toThrow(/fake_power_delay/);
    expect(() => parseDelay('5:1')).toThrow(/below the minimum/);
    expect(() => parseDelay(-1)).toThrow();
    expect(() => parseDelay(true)).toThrow();
  });
});

describe('pickDelay', () => {
  it('stays inside the range and leans towards the minimum', () => {
    const picks = Array.from({ length: 2000 }, () => pickDelay([1, 5]));
    expect(Math.min(...picks)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...picks)).toBeLessThanOrEqual(5);
    const mean = picks.reduce((a, b) => a + b, 0) / picks.length;
    expect(mean).toBeGreaterThan(2.1);
    expect(mean).toBeLessThan(2.6); // triangular(1, 5, mode 1) has mean 7/3
  });
  it('is exact for a fixed delay and uses the random source at the ends', () => {
    expect(pickDelay([3, 3])).toBe(3);
    expect(pickDelay([1, 5], () => 0)).toBe(1);
    expect(pickDelay([1, 5], () => 1)).toBe(5);
  });
});
