import { pino, type Logger } from 'pino';
import { MASK, maskDict, maskText } from './mask.js';

export type { Logger };

/**
 * The process logger: JSON lines on stderr (stdout stays free for CLI output). Every line, at every
 * level, is masked before it is written: the logged object by key and value (`maskDict`: a secret-looking
 * key's value is `******`, every string goes through `maskText`, errors as serialized), and the message
 * with `maskText` (oslo's `mask_password` patterns and credentials inside URLs). Masking the structure,
 * not the finished line, keeps every line valid JSON.
 */
export function createLogger(level: string = 'info', destination: pino.DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      base: { name: 'ingot' },
      formatters: { log: (object) => maskDict(object, MASK, maskText) },
      serializers: { err: (err: Error) => maskDict(pino.stdSerializers.err(err) as unknown as Record<string, unknown>, MASK, maskText) },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? maskText(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
