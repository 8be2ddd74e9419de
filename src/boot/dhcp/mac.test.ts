import { describe, expect, it } from 'vitest';
import { normalizeMac, normalizeMacs } from './mac.js';

describe('normalizeMac', () => {
  it('lower-cases and uses colons', () => {
    expect(normalizeMac('52:54:00:AB:cd:EF')).toBe('52:54:00:ab:cd:ef');
    expect(normalizeMac(' 52-54-00-ab-cd-ef ')).toBe('52:54:00:ab:cd:ef');
  });

  it.each(['52:54:00:ab:cd', '52:54:00:ab:cd:ef:01', '52:54-00:ab:cd:ef', '5254.00ab.cdef', '*:*:*:*:*:*', '52:54:00:ab:cd:eg', ''])(
    'refuses %j',
    (mac) => expect(() => normalizeMac(mac)).toThrow(expect.objectContaining({ name: 'InvalidParameterValue' })),
  );

  it('de-duplicates in first-seen order', () => {
    expect(normalizeMacs(['52:54:00:00:00:02', '52:54:00:00:00:01', '52-54-00-00-00-02'])).toEqual(['52:54:00:00:00:02', '52:54:00:00:00:01']);
  });
});
