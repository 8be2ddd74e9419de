/** Errors of the IPMI client, with the names IPMI v2.0 gives completion and RMCP+ status codes (from the codec). */
import { knownCompletionText } from '../../protocol/ipmi/commands.js';
import { knownRakpStatusText } from '../../protocol/ipmi/rakp.js';
import { errorMessage, IngotError, messageOf } from '../../shared/errors.js';

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

/**
 * A failure of the IPMI client; `retryable` failures are retried inside the retry window. Its message is
 * one of `messages/drivers-ipmi.ts`: `new IpmiError('timeout', errorMessage('ipmiNoAnswer', { … }))`.
 */
export class IpmiError extends Error {
  readonly kind: IpmiErrorKind;
  readonly retryable: boolean;
  /** Completion code of a `completion` error, RMCP+ status code of an `auth`/`cipher` error. */
  readonly code: number | undefined;

  constructor(kind: IpmiErrorKind, rendered: { message: string }, opts: { retryable?: boolean; code?: number; cause?: unknown } = {}) {
    super(rendered.message, { cause: opts.cause });
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
  return new IpmiError('completion', errorMessage('ipmiCommandRefused', { bmc, command, completion: completionCodeName(code) }), {
    code,
    retryable: RETRYABLE_COMPLETION_CODES.has(code),
  });
}

/** The codes an interface reports the IPMI client's failures under. */
export type IpmiInterfaceCode = 'PowerStateFailure' | 'DriverOperationError';

/**
 * A failure of the IPMI client as the interface that met it reports it: the client's message (a text of
 * `messages/drivers-ipmi.ts`, or a decoder's) under the interface's code, with the client's kind.
 */
export class IpmiFailure extends IngotError {
  /** The IPMI client's kind of failure; null for a failure that is not an {@link IpmiError}. */
  readonly kind: IpmiErrorKind | null;

  constructor(code: IpmiInterfaceCode, err: unknown) {
    super(code, messageOf(err), { cause: err });
    this.kind = err instanceof IpmiError ? err.kind : null;
  }
}

/** `err` as the IngotError an interface raises with `code` (an IngotError passes through unchanged). */
export function asIngotError(err: unknown, code: IpmiInterfaceCode): IngotError {
  return err instanceof IngotError ? err : new IpmiFailure(code, err);
}
