/**
 * The conductor's bounded worker pool. Background work (a provision flow, a power change) runs in a
 * slot; when every slot is busy, `spawn` refuses with NoFreeConductorWorkers (503) instead of queueing,
 * as Ironic does, so a flood of requests cannot pile up unbounded work.
 */
import { fail, messageOf } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

export interface WorkerPool {
  /** Number of running jobs. */
  readonly running: number;
  readonly size: number;
  /** True when a job could start now. */
  hasFree(): boolean;
  /**
   * Starts `job` in a free slot; throws NoFreeConductorWorkers when full, ConductorUnavailable when closed.
   * The job gets a signal that aborts when the pool abandons running work. Job errors are logged, never thrown.
   */
  spawn(name: string, job: (signal: AbortSignal) => Promise<void>): void;
  /**
   * Takes a slot now (same errors as `spawn`) to start a job later: lets a caller check capacity before
   * it changes anything, then start the job once the change is saved. Call `cancel()` if it never starts.
   */
  reserve(name: string): WorkerSlot;
  /** Refuses new work from now on. */
  close(): void;
  /** Resolves when no job runs any more, or `false` once `timeoutMs` passed first. */
  drain(timeoutMs?: number): Promise<boolean>;
  /** Aborts the signal of every running job (they should end promptly through their error handlers). */
  abortAll(reason: unknown): void;
}

export interface WorkerSlot {
  start(job: (signal: AbortSignal) => Promise<void>): void;
  cancel(): void;
}

export function createWorkerPool(size: number, logger: Logger, owner = 'conductor'): WorkerPool {
  const jobs = new Set<Promise<void>>();
  const controllers = new Set<AbortController>();
  let closed = false;
  let reserved = 0;
  let idle: Array<() => void> = [];

  const settle = () => {
    if (jobs.size > 0) return;
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };

  const pool: WorkerPool = {
    get running() {
      return jobs.size;
    },
    size,
    hasFree: () => !closed && jobs.size + reserved < size,
    spawn(name, job) {
      pool.reserve(name).start(job);
    },
    reserve(name) {
      if (closed) throw fail('conductorShuttingDown', { host: owner });
      if (jobs.size + reserved >= size) {
        throw fail('noFreeWorkers');
      }
      reserved++;
      let used = false;
      return {
        start(job) {
          if (used) throw fail('workerSlotReused', { name });
          used = true;
          reserved--;
          const ctrl = new AbortController();
          controllers.add(ctrl);
          const p: Promise<void> = Promise.resolve()
            .then(() => job(ctrl.signal))
            .catch((err: unknown) => logger.error({ err, job: name }, `worker job ${name} failed: ${messageOf(err)}`))
            .finally(() => {
              controllers.delete(ctrl);
              jobs.delete(p);
              settle();
            });
          jobs.add(p);
        },
        cancel() {
          if (used) return;
          used = true;
          reserved--;
        },
      };
    },
    close() {
      closed = true;
    },
    drain(timeoutMs) {
      if (jobs.size === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const done = () => {
          if (timer) clearTimeout(timer);
          resolve(true);
        };
        idle.push(done);
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            idle = idle.filter((f) => f !== done);
            resolve(jobs.size === 0);
          }, timeoutMs);
        }
      });
    },
    abortAll(reason) {
      for (const ctrl of controllers) ctrl.abort(reason);
    },
  };
  return pool;
}
