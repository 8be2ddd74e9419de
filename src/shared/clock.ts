/** Time as Ingot reads it; tests pass their own clock to control waits and timeouts. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * ISO-8601 UTC timestamp of `ms` (default: now) as Ironic writes them (Python's `isoformat()` of an
 * aware datetime): `2026-11-30T00:51:28.577000+00:00`. Fixed width, so stored values sort as text.
 */
export function isoTime(ms: number = Date.now()): string {
  return `${new Date(ms).toISOString().slice(0, -1)}000+00:00`;
}

/** UTC time of `ms` to the second for file names: `20261130T005128`. */
export function fileTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '');
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
