import { describe, expect, it } from 'vitest';
import { parseRange } from './range.js';

describe('parseRange', () => {
  it('reads single byte ranges', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(parseRange('bytes=5-', 10)).toEqual({ kind: 'partial', start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ kind: 'partial', start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ kind: 'partial', start: 8, end: 9 });
  });
  it('says what cannot be satisfied and ignores what it does not support', () => {
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    for (const h of [undefined, 'bytes=5-2', 'bytes=0-1,3-4', 'items=0-1', 'bytes=-', 'bytes=a-b']) expect(parseRange(h, 10)).toEqual({ kind: 'full' });
  });
});
