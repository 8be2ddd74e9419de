import { pino, type Logger } from 'pino';
import { maskText } from './mask.js';

export type { Logger };

/**
 * The process logger: JSON lines on stderr (stdout stays free for CLI output). Every line, at every
 * level, is masked before it is written (`maskText`: oslo's `mask_password` patterns, which also match
 * the JSON form `"ipmi_password":"…"` of logged objects, and credentials inside URLs), so a password
 * quoted by a BMC error, an agent's answer or a logged object never reaches the log.
 */
export function createLogger(level: string = 'info', destination: pino.DestinationStream = pino.destination(2)): Logger {
  return pino({ level, base: { name: 'ingot' }, hooks: { streamWrite: (line) => maskText(line) } }, destination);
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
