import { pino, type Logger } from 'pino';

export type { Logger };

/** The process logger: JSON lines on stderr (stdout stays free for CLI output). */
export function createLogger(level: string = 'info'): Logger {
  return pino({ level, base: { name: 'ingot' } }, pino.destination(2));
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
