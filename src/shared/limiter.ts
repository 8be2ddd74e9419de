/**
 * Bounded concurrency, overall and per key: at most `total` calls run at once, and at most `perKey` of
 * them share one key (e.g. one BMC). Waiters are served in arrival order; a call whose key is saturated
 * does not hold up calls for other keys.
 */
export class KeyedLimiter {
  private running = 0;
  private readonly byKey = new Map<string, number>();
  private readonly waiting: { key: string; start: () => void }[] = [];

  constructor(
    private readonly total: number,
    private readonly perKey: number,
  ) {
    if (!(total >= 1 && perKey >= 1)) throw new RangeError(`KeyedLimiter needs total >= 1 and perKey >= 1 (got ${total}, ${perKey})`);
  }

  /** Runs `fn` when a slot for `key` is free; resolves or rejects with it. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
        fn().then(resolve, reject).finally(() => this.done(key));
      };
      if (this.fits(key)) start();
      else this.waiting.push({ key, start });
    });
  }

  /** Calls running now (for tests and metrics). */
  get active(): number {
    return this.running;
  }

  private fits(key: string): boolean {
    return this.running < this.total && (this.byKey.get(key) ?? 0) < this.perKey;
  }

  private done(key: string): void {
    this.running--;
    const left = (this.byKey.get(key) ?? 1) - 1;
    if (left === 0) this.byKey.delete(key);
    else this.byKey.set(key, left);
    for (let i = 0; i < this.waiting.length && this.running < this.total; ) {
      const next = this.waiting[i] as { key: string; start: () => void };
      if (this.fits(next.key)) {
        this.waiting.splice(i, 1);
        next.start();
      } else {
        i++;
      }
    }
  }
}
