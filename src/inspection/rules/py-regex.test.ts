/** Python regular expressions in rules: inline flags, named groups, fullmatch and search. */
import { describe, expect, it } from 'vitest';
import { compilePyRegex } from './py-regex.js';

describe('Python regular expressions', () => {
  it('honours leading inline flags and named groups', () => {
    const r = compilePyRegex('(?i)dell');
    expect(r.ok && r.regex.test('Dell Inc.')).toBe(true);
    const g = compilePyRegex('(?P<v>\\d+)-x');
    expect(g.ok && g.regex.test('12-x')).toBe(true);
    const anchored = compilePyRegex('\\Adell\\Z');
    expect(anchored.ok && anchored.regex.test('dell')).toBe(true);
    expect(anchored.ok && anchored.regex.test('dell\n')).toBe(false);
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
    expect(!bad.ok && bad.error).toMatch(/missing closing \)/);
  });

  it('refuses what a linear-time engine cannot run, naming the construct', () => {
    for (const [pattern, construct] of [['(a)\\1', '\\1'], ['(?=a)b', '(?='], ['(?<!a)b', '(?<'], ['(?P<v>a)(?P=v)', '(?P']] as const) {
      const r = compilePyRegex(pattern);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toContain(construct);
      expect(!r.ok && r.error).toMatch(/linear-time/);
    }
  });

  it('matches a pattern that backtracks catastrophically in a backtracking engine, on a long input', () => {
    const evil = compilePyRegex('(a+)+$', 'search');
    const input = `${'a'.repeat(100_000)}!`;
    expect(evil.ok && evil.regex.test(input)).toBe(false);
    const nested = compilePyRegex('^(([a-z])+.)+[A-Z]([a-z])+$', 'fullmatch');
    expect(nested.ok && nested.regex.test(`${'aaaa'.repeat(20_000)}!`)).toBe(false);
  });
});
