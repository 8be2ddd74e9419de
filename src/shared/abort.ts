/** Abort helpers for long operations that take an `AbortSignal`. */
import { fail } from './errors.js';

/** Throws the abort reason when `signal` aborted (checked between the parts of a long operation). */
export function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : fail('operationAborted', { reason: String(signal.reason) });
}
