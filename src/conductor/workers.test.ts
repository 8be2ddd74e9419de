import { describe, expect, it } from 'vitest';
import { silentLogger } from '../shared/logger.js';
import { createWorkerPool } from './workers.js';

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

describe('worker pool', () => {
  it('runs up to size jobs and refuses the next with 503', async () => {
    const pool = createWorkerPool(2, silentLogger());
    const g = gate();
    pool.spawn('a', () => g.p);
    pool.spawn('b', () => g.p);
    expect(pool.running).toBe(2);
    expect(() => pool.spawn('c', () => g.p)).toThrow(expect.objectContaining({ code: 'NoFreeConductorWorkers', status: 503 }));
    g.open();
    expect(await pool.drain(1000)).toBe(true);
    expect(pool.running).toBe(0);
    pool.spawn('d', async () => undefined);
    expect(await pool.drain(1000)).toBe(true);
  });

  it('a reserved slot counts against the size until started or cancelled', () => {
    const pool = createWorkerPool(1, silentLogger());
    const slot = pool.reserve('x');
    expect(pool.hasFree()).toBe(false);
    expect(() => pool.reserve('y')).toThrow(expect.objectContaining({ code: 'NoFreeConductorWorkers' }));
    slot.cancel();
    expect(pool.hasFree()).toBe(true);
  });

  it('a failing job is logged, not thrown, and frees its slot', async () => {
    const pool = createWorkerPool(1, silentLogger());
    pool.spawn('boom', async () => {
      throw new Error('boom');
    });
    expect(await pool.drain(1000)).toBe(true);
    expect(pool.hasFree()).toBe(true);
  });

  it('drain times out while work runs; abortAll aborts the jobs’ signals; close refuses new work', async () => {
    const pool = createWorkerPool(3, silentLogger());
    let reason: unknown;
    pool.spawn('long', (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => { reason = signal.reason; resolve(); })));
    pool.close();
    expect(() => pool.spawn('late', async () => undefined)).toThrow(expect.objectContaining({ code: 'ConductorUnavailable' }));
    expect(await pool.drain(30)).toBe(false);
    pool.abortAll('stop');
    expect(await pool.drain(1000)).toBe(true);
    expect(reason).toBe('stop');
  });
});
