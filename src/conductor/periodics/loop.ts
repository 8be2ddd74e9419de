/** Runs a periodic task every `intervalMs` until `signal` aborts; one failing round does not stop it. */
import { sleep } from '../../shared/clock.js';
import { messageOf } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';

export async function periodicLoop(name: string, intervalMs: number, round: () => Promise<unknown>, signal: AbortSignal, logger: Logger): Promise<void> {
  while (!signal.aborted) {
    try {
      await sleep(intervalMs, signal);
    } catch {
      return;
    }
    try {
      await round();
    } catch (err) {
      if (signal.aborted) return;
      logger.error({ err, periodic: name }, `periodic ${name} failed: ${messageOf(err)}`);
    }
  }
}
