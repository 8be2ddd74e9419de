import { describe, expect, it } from 'vitest';
import { backoffDelay, retry, type RetryClock } from './retry.js';

/** Virtual time: a wait advances the clock at once and is recorded. */
function virtualClock(): RetryClock & { t: number; waits: number[] } {
  const c = {
    t: 1_000_000,
    waits: [] as number[],
    now: () => c.t,
    async sleep(ms: number, signal?: AbortSignal) {
      signal?.throwIfAborted();
      c.waits.push(ms);
      c.t += ms;
    },
  };
  return c;
}

/** An attempt that fails `failures` times with `error`, then gives `value`. */
function flaky<T>(failures: number, value: T, error: (n: number) => unknown = (n) => new Error(`fail ${n}`)) {
  const seen: number[] = [];
  const attempt = async (n: number) => {
    seen.push(n);
    if (n <= failures) throw error(n);
    return value;
  };
  return { attempt, seen };
}

describe('backoffDelay', () => {
  it('grows by the factor up to the longest step', () => {
    const b = { initialMs: 1000, maxMs: 8000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(b, n))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect([1, 2, 3].map((n) => backoffDelay({ initialMs: 500, factor: 1 }, n))).toEqual([500, 500, 500]);
    expect(backoffDelay({ initialMs: 10, factor: 3 }, 3)).toBe(90);
  });

  it('draws an equal jitter between half the step and the step', () => {
    const b = { initialMs: 1000, jitter: 'equal' as const };
    expect(backoffDelay(b, 3, () => 0)).toBe(2000);
    expect(backoffDelay(b, 3, () => 0.5)).toBe(3000);
    expect(backoffDelay(b, 3, () => 0.999)).toBeCloseTo(3998, 0);
  });

  it('draws a full jitter between the first wait and the step', () => {
    const b = { initialMs: 1000, maxMs: 60_000, jitter: 'full' as const };
    expect(backoffDelay(b, 1, () => 0.7)).toBe(1000);
    expect(backoffDelay(b, 3, () => 0)).toBe(1000);
    expect(backoffDelay(b, 3, () => 0.5)).toBe(2500);
    expect(backoffDelay(b, 20, () => 0.5)).toBe(30_500);
  });
});

describe('retry', () => {
  it('retries until an attempt succeeds, waiting the backoff between attempts', async () => {
    const clock = virtualClock();
    const { attempt, seen } = flaky(3, 'ok');
    await expect(retry(attempt, { backoff: { initialMs: 100 }, clock })).resolves.toBe('ok');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(clock.waits).toEqual([100, 200, 400]);
  });

  it('gives up with the last error after the attempts allowed', async () => {
    const clock = virtualClock();
    const { attempt, seen } = flaky(10, 'ok');
    await expect(retry(attempt, { backoff: { initialMs: 100 }, attempts: 3, clock })).rejects.toThrow('fail 3');
    expect(seen).toEqual([1, 2, 3]);
    expect(clock.waits).toEqual([100, 200]);
  });

  it('gives up with the last error when the next wait would reach the deadline', async () => {
    const clock = virtualClock();
    const { attempt, seen } = flaky(10, 'ok');
    // Attempts at 0, 1, 3 and 7 s; the next wait (8 s) would end at 15 s, past the 10 s deadline.
    await expect(retry(attempt, { backoff: { initialMs: 1000, maxMs: 8000 }, deadline: clock.t + 10_000, clock })).rejects.toThrow('fail 4');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(clock.waits).toEqual([1000, 2000, 4000]);
  });

  it('does not start a wait that ends exactly at the deadline', async () => {
    const clock = virtualClock();
    const { attempt, seen } = flaky(10, 'ok');
    await expect(retry(attempt, { backoff: { initialMs: 1000, factor: 1 }, deadline: clock.t + 2000, clock })).rejects.toThrow('fail 2');
    expect(seen).toEqual([1, 2]);
  });

  it('does not retry what the predicate calls final', async () => {
    const clock = virtualClock();
    const final = new Error('final');
    const { attempt, seen } = flaky(10, 'ok', (n) => (n === 2 ? final : new Error('busy')));
    await expect(retry(attempt, { backoff: { initialMs: 10 }, retryable: (err) => err !== final, clock })).rejects.toBe(final);
    expect(seen).toEqual([1, 2]);
  });

  it('waits longer when the failure asks, but no longer than the longest step', async () => {
    const clock = virtualClock();
    const asked = [5000, 100, 60_000];
    const { attempt } = flaky(3, 'ok', (n) => Object.assign(new Error('busy'), { asked: asked[n - 1] }));
    await retry(attempt, { backoff: { initialMs: 1000, maxMs: 10_000 }, askedDelayMs: (err) => (err as { asked: number }).asked, clock });
    expect(clock.waits).toEqual([5000, 2000, 10_000]);
  });

  it('tells each retry with the attempt, the error and the wait, jittered by the given random source', async () => {
    const clock = virtualClock();
    const told: string[] = [];
    const { attempt } = flaky(2, 'ok');
    await retry(attempt, {
      backoff: { initialMs: 1000, jitter: 'equal' },
      random: () => 0.5,
      onRetry: (n, err, ms) => told.push(`${n} ${(err as Error).message} ${ms}`),
      clock,
    });
    expect(told).toEqual(['1 fail 1 750', '2 fail 2 1500']);
    expect(clock.waits).toEqual([750, 1500]);
  });

  it("rejects with the signal's reason once it aborts, in an attempt or in a wait", async () => {
    const clock = virtualClock();
    const stop = new Error('stop');
    const during = new AbortController();
    await expect(retry(async () => {
      during.abort(stop);
      throw new Error('aborted request');
    }, { backoff: { initialMs: 10 }, signal: during.signal, clock })).rejects.toBe(stop);
    expect(clock.waits).toEqual([]);

    const between = new AbortController();
    let n = 0;
    const waiting: RetryClock = { now: clock.now, sleep: async (_ms, signal) => { between.abort(stop); signal?.throwIfAborted(); } };
    await expect(retry(async () => {
      n++;
      throw new Error('busy');
    }, { backoff: { initialMs: 10 }, signal: between.signal, clock: waiting })).rejects.toBe(stop);
    expect(n).toBe(1);
  });
});
