/**
 * Retrying an operation that may fail for a while (a BMC that is busy, a conductor that holds the node,
 * a connection refused while a service starts): attempt after attempt, spaced by a backoff, until one
 * succeeds, the error is final, the attempts or the time run out, or the signal aborts. The agent's
 * lookup and inspection callback, the IPMI scheduler and the Redfish client all retry through
 * {@link retry}; their policies (Ironic's, ironic-python-agent's) are its options.
 */
import { sleep, type Clock } from './clock.js';

/** The time a retry loop reads and waits on; tests pass a virtual one. */
export interface RetryClock extends Clock {
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall-clock time and real timers. */
export const systemRetryClock: RetryClock = { now: () => Date.now(), sleep };

/**
 * How a wait is drawn from its step (the exponential value):
 * - `none`: the step itself;
 * - `equal`: uniformly from half the step to the step, so a rack of clients does not retry in step;
 * - `full`: uniformly from the first wait to the step (tenacity's `wait_random_exponential(min=…)`).
 */
export type Jitter = 'none' | 'equal' | 'full';

/** The spacing of attempts: the wait after attempt n is `initialMs · factor^(n-1)`, at most `maxMs`, jittered. */
export interface Backoff {
  /** The wait after the first attempt (the step of attempt 1), ms. */
  initialMs: number;
  /** Longest step, ms; default: no limit. */
  maxMs?: number;
  /** Growth per attempt: 2 (the default) doubles, 1 keeps the wait fixed. */
  factor?: number;
  /** Default `none`. */
  jitter?: Jitter;
}

/** The wait after failed attempt `attempt` (1 for the first) under `backoff`; `random` gives [0, 1). */
export function backoffDelay(backoff: Backoff, attempt: number, random: () => number = Math.random): number {
  const step = Math.min(backoff.maxMs ?? Infinity, backoff.initialMs * (backoff.factor ?? 2) ** (attempt - 1));
  switch (backoff.jitter ?? 'none') {
    case 'none':
      return step;
    case 'equal':
      return step * (0.5 + random() / 2);
    case 'full':
      return backoff.initialMs + random() * Math.max(0, step - backoff.initialMs);
  }
}

/** Options of {@link retry}. Give `attempts`, `deadline` or both; with neither it retries until success or a final error. */
export interface RetryOptions {
  backoff: Backoff;
  /** Most attempts in all, the first included. */
  attempts?: number;
  /** Time (of `clock`, epoch ms) by which it gives up: no wait that would end at or after it is started. */
  deadline?: number;
  /** Whether a failure is worth another attempt; default: every failure is. */
  retryable?: (err: unknown) => boolean;
  /**
   * A wait the failure asks for itself (an HTTP `Retry-After`), ms, or null: the wait is then the longer
   * of it and the backoff's, still at most `backoff.maxMs`.
   */
  askedDelayMs?: (err: unknown) => number | null;
  /** Told before each wait: the attempt that failed (1 for the first), its error and the wait (ms). */
  onRetry?: (attempt: number, err: unknown, delayMs: number) => void;
  /** Stops the retries: a wait ends at once and the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Default {@link systemRetryClock}. */
  clock?: RetryClock;
  /** Source of [0, 1) for the jitter; default `Math.random`. */
  random?: () => number;
}

/**
 * Runs `attempt(n)` (n = 1 first) until it resolves, and resolves with its value. After a failure it
 * rejects with the signal's reason when the signal has aborted; with the failure itself when that is not
 * retryable, was the last attempt allowed, or the wait would reach the deadline; otherwise it tells
 * `onRetry`, waits, and tries again.
 */
export async function retry<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const clock = opts.clock ?? systemRetryClock;
  const random = opts.random ?? Math.random;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      opts.signal?.throwIfAborted();
      if (opts.retryable && !opts.retryable(err)) throw err;
      if (opts.attempts !== undefined && n >= opts.attempts) throw err;
      const delay = delayAfter(opts, n, err, random);
      if (opts.deadline !== undefined && clock.now() + delay >= opts.deadline) throw err;
      opts.onRetry?.(n, err, delay);
      await clock.sleep(delay, opts.signal);
    }
  }
}

function delayAfter(opts: RetryOptions, n: number, err: unknown, random: () => number): number {
  const backoff = backoffDelay(opts.backoff, n, random);
  const asked = opts.askedDelayMs?.(err) ?? null;
  return asked === null ? backoff : Math.min(Math.max(asked, backoff), opts.backoff.maxMs ?? Infinity);
}
