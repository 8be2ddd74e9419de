import { describe, expect, it } from 'vitest';
import { BmcScheduler } from './bmc-scheduler.js';
import type { SchedulerTime } from './bmc-scheduler.js';
import { IpmiError } from './errors.js';

/** Virtual time: sleeping advances the clock at once and is recorded. */
function virtualTime(): SchedulerTime & { t: number; sleeps: number[] } {
  const v = {
    t: 1_000_000,
    sleeps: [] as number[],
    now: () => v.t,
    sleep: async (ms: number, signal: AbortSignal) => {
      signal.throwIfAborted();
      v.sleeps.push(ms);
      v.t += ms;
    },
  };
  return v;
}

const busy = () => new IpmiError('completion', { message: 'node busy' }, { retryable: true, code: 0xc0 });
const signal = new AbortController().signal;

describe('BmcScheduler', () => {
  it('spaces commands to one BMC by the minimum interval, measured from the end of the last one', async () => {
    const time = virtualTime();
    const s = new BmcScheduler({ command_retry_timeout_s: 60, min_command_interval_s: 5 }, time);
    const starts: number[] = [];
    const cmd = async () => {
      starts.push(time.t);
      time.t += 200; // the command itself takes 200 ms
    };
    await Promise.all([s.run('a:623', signal, cmd), s.run('a:623', signal, cmd), s.run('a:623', signal, cmd)]);
    expect(starts.map((t) => t - starts[0]!)).toEqual([0, 5200, 10400]);
  });

  it('does not space commands to different BMCs', async () => {
    const time = virtualTime();
    const s = new BmcScheduler({ command_retry_timeout_s: 60, min_command_interval_s: 5 }, time);
    await s.run('a:623', signal, async () => undefined);
    await s.run('b:623', signal, async () => undefined);
    expect(time.sleeps).toEqual([]);
  });

  it('runs one command at a time per BMC', async () => {
    const s = new BmcScheduler({ command_retry_timeout_s: 60, min_command_interval_s: 0 }, virtualTime());
    let inFlight = 0;
    let most = 0;
    const cmd = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    };
    await Promise.all(Array.from({ length: 5 }, () => s.run('a:623', signal, cmd)));
    expect(most).toBe(1);
  });

  it('retries a retryable failure with doubling backoff until it succeeds', async () => {
    const time = virtualTime();
    const s = new BmcScheduler({ command_retry_timeout_s: 60, min_command_interval_s: 0 }, time);
    const attempts: number[] = [];
    const value = await s.run('a:623', signal, async ({ attempt }) => {
      attempts.push(attempt);
      if (attempt < 4) throw busy();
      return 'ok';
    });
    expect(value).toBe('ok');
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(time.sleeps).toEqual([1000, 2000, 4000]);
  });

  it('gives up with the last error when the retry window closes', async () => {
    const time = virtualTime();
    const s = new BmcScheduler({ command_retry_timeout_s: 10, min_command_interval_s: 0 }, time);
    const start = time.t;
    let attempts = 0;
    let deadline = 0;
    await expect(
      s.run('a:623', signal, async (ctx) => {
        attempts++;
        deadline = ctx.deadline;
        throw busy();
      }),
    ).rejects.toMatchObject({ kind: 'completion', code: 0xc0 });
    expect(deadline).toBe(start + 10_000);
    expect(attempts).toBe(4); // at 0, 1, 3 and 7 s; the next backoff (8 s) would end past the window
    expect(time.t).toBeLessThan(deadline);
  });

  it('does not retry an error that is not retryable', async () => {
    const s = new BmcScheduler({ command_retry_timeout_s: 60, min_command_interval_s: 0 }, virtualTime());
    let attempts = 0;
    const wrong = new IpmiError('wrong-password', { message: 'wrong password' });
    await expect(
      s.run('a:623', signal, async () => {
        attempts++;
        throw wrong;
      }),
    ).rejects.toBe(wrong);
    expect(attempts).toBe(1);
  });

  it('keeps the queue going after a failed command', async () => {
    const s = new BmcScheduler({ command_retry_timeout_s: 60, min_command_interval_s: 0 }, virtualTime());
    const failed = s.run('a:623', signal, async () => {
      throw new Error('boom');
    });
    const next = s.run('a:623', signal, async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('honours the abort signal while waiting its turn', async () => {
    const s = new BmcScheduler({ command_retry_timeout_s: 60, min_command_interval_s: 0.2 }); // real time, short interval
    await s.run('a:623', signal, async () => undefined);
    const ac = new AbortController();
    const waiting = s.run('a:623', ac.signal, async () => 'ran');
    ac.abort(new Error('conductor shutting down'));
    await expect(waiting).rejects.toThrow('conductor shutting down');
    await expect(s.run('a:623', signal, async () => 'after')).resolves.toBe('after');
  });
});
