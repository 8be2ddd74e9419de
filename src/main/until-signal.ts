/** Waits for SIGINT or SIGTERM, then runs `close` (a failure sets a non-zero exit code). */
import type { Logger } from '../shared/logger.js';

export function untilSignal(logger: Logger, what: string, close: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'signal received');
      close().then(resolve, (err: unknown) => {
        logger.error({ err }, `stopping ${what} failed`);
        process.exitCode = 1;
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
