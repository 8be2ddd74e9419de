import { describe, expect, it } from 'vitest';
import { newUuid } from '../shared/ids.js';
import { HashRing } from './hash-ring.js';

describe('hash ring', () => {
  const keys = Array.from({ length: 3000 }, () => newUuid());

  it('is empty without hosts and maps everything to a single host', () => {
    expect(new HashRing([]).hostFor('x')).toBeNull();
    const one = new HashRing(['a']);
    expect(keys.every((k) => one.hostFor(k) === 'a')).toBe(true);
  });

  it('spreads keys over hosts and is deterministic', () => {
    const ring = new HashRing(['a', 'b', 'c']);
    const counts = new Map<string, number>();
    for (const k of keys) counts.set(ring.hostFor(k) as string, (counts.get(ring.hostFor(k) as string) ?? 0) + 1);
    for (const h of ['a', 'b', 'c']) expect(counts.get(h)).toBeGreaterThan(500);
    const again = new HashRing(['c', 'a', 'b']);
    expect(keys.every((k) => again.hostFor(k) === ring.hostFor(k))).toBe(true);
  });

  it('moves only the removed host’s keys when a host leaves', () => {
    const before = new HashRing(['a', 'b', 'c']);
    const after = new HashRing(['a', 'b']);
    for (const k of keys) {
      if (before.hostFor(k) !== 'c') expect(after.hostFor(k)).toBe(before.hostFor(k));
    }
  });
});
