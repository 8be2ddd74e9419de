/**
 * Helpers for tests on vitest's fake timers (the virtual clock for code that waits with `setTimeout`):
 * real I/O still runs on the real event loop, so a test waits for the code under test to reach its
 * timer before moving the clock.
 */
import { expect, vi } from 'vitest';

/**
 * Lets the real event loop run (setImmediate, which stays real) until at least `count` fake timers are
 * pending; fails when they never come. Unlike `vi.waitUntil` it never moves the fake clock itself.
 */
export async function untilTimersPending(count = 1, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns && vi.getTimerCount() < count; i++) await new Promise((r) => setImmediate(r));
  expect(vi.getTimerCount(), `fake timers pending (wanted ${count})`).toBeGreaterThanOrEqual(count);
}
