import { imageError } from './errors.js';

interface Flight<T> {
  promise: Promise<T>;
  ctl: AbortController;
  waiters: number;
}

/**
 * Work shared by key: the first caller for a key starts it, later callers for the same key wait for the
 * same result instead of starting it again. Each caller may abort its own wait; the work itself is
 * aborted only when every caller waiting for it has gone. A finished key (success or failure) is
 * forgotten, so the next call starts afresh.
 */
export class SharedFlights<T> {
  private readonly flights = new Map<string, Flight<T>>();

  /** Keys with work in progress. */
  keys(): string[] {
    return [...this.flights.keys()];
  }

  has(key: string): boolean {
    return this.flights.has(key);
  }

  /** Joins the work for `key`, starting it with `start(signal)` if none runs; `url` names the image in abort errors. */
  run(key: string, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, url: string): Promise<T> {
    if (signal?.aborted) return Promise.reject(imageError('aborted', 'imageFetchAborted', { url }, { cause: signal.reason }));
    let f = this.flights.get(key);
    if (!f) {
      const ctl = new AbortController();
      const flight: Flight<T> = { ctl, waiters: 0, promise: Promise.resolve() as Promise<never> };
      flight.promise = (async () => start(ctl.signal))().finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
      flight.promise.catch(() => undefined);
      this.flights.set(key, flight);
      f = flight;
    }
    const flight = f;
    flight.waiters++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const leave = () => {
        settled = true;
        flight.waiters--;
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        if (settled) return;
        leave();
        if (flight.waiters === 0) flight.ctl.abort(signal?.reason);
        reject(imageError('aborted', 'imageFetchAborted', { url }, { cause: signal?.reason }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (v) => {
          if (settled) return;
          leave();
          resolve(v);
        },
        (err: unknown) => {
          if (settled) return;
          leave();
          reject(err);
        },
      );
    });
  }
}
