/** Errors of the IPMI client, with the names IPMI v2.0 gives completion and RMCP+ status codes (from the codec). */
import type { ErrorCode } from '../../shared/errors.js';
import { knownCompletionText } from '../../protocol/ipmi/commands.js';
import { knownRakpStatusText } from '../../protocol/ipmi/rakp.js';
import { IngotError } from '../../shared/errors.js';

/** What went wrong talking to a BMC. */
export type IpmiErrorKind =
  | 'timeout' // no answer within the retry window
  | 'unknown-user' // RAKP2 status 0x0D
  | 'wrong-password' // RAKP2 HMAC mismatch or RAKP4 status 0x0F
  | 'auth' // any other refusal while opening the session
  | 'cipher' // the BMC does not offer the cipher suite
  | 'completion' // the command answered with a non-zero completion code
  | 'session' // the BMC no longer knows the session
  | 'protocol'; // a reply Ingot cannot make sense of

/** A failure of the IPMI client; `retryable` failures are retried inside the retry window. */
export class IpmiError extends Error {
  readonly kind: IpmiErrorKind;
  readonly retryable: boolean;
  /** Completion code of a `completion` error, RMCP+ status code of an `auth`/`cipher` error. */
  readonly code: number | undefined;

  constructor(kind: IpmiErrorKind, message: string, opts: { retryable?: boolean; code?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'IpmiError';
    this.kind = kind;
    this.retryable = opts.retryable ?? false;
    this.code = opts.code;
  }
}

/**
 * Completion codes worth retrying: the ones Ironic's `IPMITOOL_RETRYABLE_FAILURES` matches in ipmitool's
 * output ("Node busy", "Timeout", "Out of space", "BMC initialization in progress").
 */
const RETRYABLE_COMPLETION_CODES = new Set([0xc0, 0xc3, 0xc4, 0xd2]);

/** RMCP+ status codes by which a BMC refuses the proposed algorithms (so another cipher suite may work). */
export const CIPHER_REFUSAL_STATUSES: ReadonlySet<number> = new Set([0x04, 0x05, 0x06, 0x07, 0x10, 0x11]);

function hex(n: number): string {
  return `0x${n.toString(16).padStart(2, '0').toUpperCase()}`;
}

/** `0xC1 (invalid command)`. */
export function completionCodeName(code: number): string {
  const name = knownCompletionText(code) ?? (code >= 0x80 && code <= 0xbe ? 'command-specific error' : 'unknown completion code');
  return `${hex(code)} (${name})`;
}

/** `0x0D (unauthorized name)`. */
export function rmcpStatusName(code: number): string {
  return `${hex(code)} (${knownRakpStatusText(code) ?? 'unknown status'})`;
}

/** The error for a command that answered with completion code `code`. */
export function completionError(bmc: string, command: string, code: number): IpmiError {
  return new IpmiError('completion', `BMC ${bmc} refused ${command}: completion code ${completionCodeName(code)}.`, {
    code,
    retryable: RETRYABLE_COMPLETION_CODES.has(code),
  });
}

/** `err` as an {@link IngotError} with `code` (an IngotError passes through unchanged). */
export function asIngotError(err: unknown, code: ErrorCode): IngotError {
  if (err instanceof IngotError) return err;
  if (err instanceof Error) return new IngotError(code, err.message, { cause: err });
  return new IngotError(code, String(err));
}
