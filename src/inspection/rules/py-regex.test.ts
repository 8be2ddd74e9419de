/** Python regular expressions in rules: inline flags, named groups, fullmatch and search. */
import { describe, expect, it } from 'vitest';
import { compilePyRegex } from './py-regex.js';

describe('Python regular expressions', () => {
  it('honours leading inline flags and named groups', () => {
    const r = compilePyRegex('(?i)dell');
    expect(r.ok && r.regex.test('Dell Inc.')).toBe(true);
    const g = compilePyRegex('(?P<v>\\d+)-(?P=v)');
    expect(g.ok && g.regex.test('12-12')).toBe(true);
  });

  it('fullmatch anchors the whole value, search does not', () => {
    const full = compilePyRegex('Power.*', 'fullmatch');
    const alt = compilePyRegex('a|b', 'fullmatch');
    expect(full.ok && full.regex.test('PowerEdge R640')).toBe(true);
    expect(full.ok && full.regex.test('Dell PowerEdge')).toBe(false);
    expect(alt.ok && alt.regex.test('ab')).toBe(false);
  });

  it('reports an invalid pattern', () => {
    const bad = compilePyRegex('(unclosed');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/Unterminated group/);
  });
});
