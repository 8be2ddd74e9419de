import { describe, expect, it } from 'vitest';
import { KeyedLimiter } from './limiter.js';

describe('KeyedLimiter', () => {
  it('never runs more than the total or the per-key limit at once, and runs everything', async () => {
    const limiter = new KeyedLimiter(4, 2);
    const now = new Map<string, number>();
    let peakTotal = 0;
    const peakKey = new Map<string, number>();
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const key = `bmc-${i % 3}`;
        return limiter.run(key, async () => {
          now.set(key, (now.get(key) ?? 0) + 1);
          peakKey.set(key, Math.max(peakKey.get(key) ?? 0, now.get(key) as number));
          peakTotal = Math.max(peakTotal, limiter.active);
          await new Promise((r) => setTimeout(r, 1 + (i % 4)));
          now.set(key, (now.get(key) as number) - 1);
          done.push(i);
        });
      }),
    );
    expect(done).toHaveLength(40);
    expect(peakTotal).toBe(4);
    expect(Math.max(...peakKey.values())).toBe(2);
  });

  it('lets other keys pass a saturated key, and passes errors through', async () => {
    const limiter = new KeyedLimiter(3, 1);
    let release!: () => void;
    const slow = limiter.run('a', () => new Promise<void>((r) => (release = r)));
    const queued = limiter.run('a', async () => 'a2');
    await expect(limiter.run('b', async () => 'b')).resolves.toBe('b');
    await expect(limiter.run('c', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    release();
    await slow;
    await expect(queued).resolves.toBe('a2');
    expect(limiter.active).toBe(0);
  });
});
