import { describe, expect, it } from 'vitest';
import { lazy } from './lazy.js';

describe('lazy', () => {
  it('fails, naming the fixture, when read before it exists', () => {
    const fixture = lazy<{ n: number }>(() => undefined, 'the widget');
    expect(() => fixture.n).toThrow(/the widget is read before the hook that creates it ran/);
  });

  it('reads, writes, spreads and calls methods of the fixture of the moment', () => {
    class Counter {
      count = 0;
      bump(): number {
        return ++this.count;
      }
    }
    let current = new Counter();
    const fixture = lazy(() => current, 'the counter');
    expect(fixture.bump()).toBe(1);
    const { bump } = fixture;
    expect(bump()).toBe(2);
    fixture.count = 10;
    expect(current.count).toBe(10);
    expect({ ...fixture }).toEqual({ count: 10 });
    expect('bump' in fixture).toBe(true);
    current = new Counter();
    expect(fixture.count).toBe(0);
  });
});
