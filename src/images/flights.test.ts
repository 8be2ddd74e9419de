import { describe, expect, it } from 'vitest';
import { isImageError } from './errors.js';
import { SharedFlights } from './flights.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('SharedFlights', () => {
  it('runs the work once for concurrent callers of one key and forgets it when done', async () => {
    const f = new SharedFlights<string>();
    const gate = deferred<string>();
    let starts = 0;
    const start = () => {
      starts++;
      return gate.promise;
    };
    const all = Promise.all([f.run('k', start, undefined, 'w'), f.run('k', start, undefined, 'w'), f.run('k', start, undefined, 'w')]);
    expect(f.has('k')).toBe(true);
    gate.resolve('done');
    expect(await all).toEqual(['done', 'done', 'done']);
    expect(starts).toBe(1);
    expect(f.has('k')).toBe(false);
    await f.run('k', async () => {
      starts++;
      return 'again';
    }, undefined, 'w');
    expect(starts).toBe(2);
  });

  it('gives every waiter the failure, then starts afresh', async () => {
    const f = new SharedFlights<string>();
    const gate = deferred<string>();
    const a = f.run('k', () => gate.promise, undefined, 'w');
    const b = f.run('k', () => gate.promise, undefined, 'w');
    gate.reject(new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    await expect(b).rejects.toThrow('boom');
    expect(await f.run('k', async () => 'ok', undefined, 'w')).toBe('ok');
  });

  it('lets one waiter leave without stopping the work for the others', async () => {
    const f = new SharedFlights<string>();
    const gate = deferred<string>();
    let workSignal: AbortSignal | undefined;
    const start = (s: AbortSignal) => {
      workSignal = s;
      return gate.promise;
    };
    const leaving = new AbortController();
    const a = f.run('k', start, leaving.signal, 'http://h/x.img');
    const b = f.run('k', start, undefined, 'http://h/x.img');
    leaving.abort();
    const err = await a.catch((e: unknown) => e);
    expect(isImageError(err, 'aborted')).toBe(true);
    expect((err as Error).message).toBe('Fetching image http://h/x.img was aborted.');
    expect(workSignal?.aborted).toBe(false);
    gate.resolve('image');
    expect(await b).toBe('image');
  });

  it('aborts the work when the last waiter leaves', async () => {
    const f = new SharedFlights<string>();
    let workSignal: AbortSignal | undefined;
    const c1 = new AbortController();
    const c2 = new AbortController();
    const start = (s: AbortSignal) => {
      workSignal = s;
      return new Promise<string>((_r, rej) => s.addEventListener('abort', () => rej(new Error('stopped'))));
    };
    const a = f.run('k', start, c1.signal, 'w');
    const b = f.run('k', start, c2.signal, 'w');
    c1.abort();
    await expect(a).rejects.toMatchObject({ reason: 'aborted' });
    expect(workSignal?.aborted).toBe(false);
    c2.abort();
    await expect(b).rejects.toMatchObject({ reason: 'aborted' });
    expect(workSignal?.aborted).toBe(true);
  });

  it('refuses at once when the signal is already aborted', async () => {
    const f = new SharedFlights<string>();
    let started = false;
    await expect(f.run('k', async () => {
      started = true;
      return 'x';
    }, AbortSignal.abort(), 'w')).rejects.toMatchObject({ reason: 'aborted' });
    expect(started).toBe(false);
  });
});
