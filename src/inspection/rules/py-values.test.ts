/** Python's str(), repr(), == and ordering of JSON values, as the rules compare them. */
import { describe, expect, it } from 'vitest';
import { pyCompare, pyEquals, pyStr } from './py-values.js';
import { pythonRepr } from '../../protocol/python-repr.js';

describe('Python values', () => {
  it('stringify and compare like Python', () => {
    expect(pyStr(null)).toBe('None');
    expect(pyStr(true)).toBe('True');
    expect(pythonRepr({ a: [1, "it's"] })).toBe(`{'a': [1, "it's"]}`);
    expect(pyEquals('8', 8)).toBe(false);
    expect(pyEquals([1, { a: 2 }], [1, { a: 2 }])).toBe(true);
    expect(pyCompare('a', 'b')).toBeLessThan(0);
    expect(() => pyCompare('a', 1)).toThrow(/cannot order str and int/);
  });
});
