import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt.js';

describe('excerpt', () => {
  it('folds control characters and whitespace, so a remote value cannot forge a line or an escape', () => {
    expect(excerpt('bad\r\nINFO forged line\u001b[31m red\u0000\u0085end\u2028', 80)).toBe('bad INFO forged line [31m red end');
  });

  it('keeps short text as it is and cuts long text to the limit, ending in …', () => {
    expect(excerpt('abc', 3)).toBe('abc');
    expect(excerpt('abcdef', 4)).toBe('abc…');
    expect(excerpt('x'.repeat(1_000_000), 40)).toHaveLength(40);
    expect(excerpt('😀😀😀', 2)).toBe('😀…');
  });
});
