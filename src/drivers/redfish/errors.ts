/** The Redfish driver's error: an IngotError (mostly DriverOperationError) that also carries the BMC's HTTP status. */
import { excerpt } from '../../shared/excerpt.js';
import { errorMessage, IngotError, type ErrorCode, type ErrorOptions, type FailArgs, type MessageId } from '../../shared/errors.js';

export class RedfishError extends IngotError {
  /** The BMC's HTTP status, or null when no HTTP answer came (connection failure, timeout). */
  readonly httpStatus: number | null;

  /** `rendered` is what `errorMessage(id, values)` gives; {@link redfishError} builds one from the id. */
  constructor(httpStatus: number | null, rendered: { code: ErrorCode; message: string }, options?: ErrorOptions) {
    super(rendered.code, rendered.message, options);
    this.httpStatus = httpStatus;
  }
}

/** The RedfishError of message `id` with `values`: `redfishError(202, 'redfishTaskTimedOut', { bmc, … })`. */
export function redfishError<M extends MessageId>(httpStatus: number | null, id: M, ...args: FailArgs<M>): RedfishError {
  return new RedfishError(httpStatus, errorMessage(id, ...args), args[1]);
}

/** Characters of a BMC's error a message shows. */
export const MAX_SHOWN = 300;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The human part of a Redfish error body (DSP0266 §9.6 "Error responses"): `error.message` followed by the
 * `Message` of each `@Message.ExtendedInfo` entry; falls back to the raw text. At most {@link MAX_SHOWN}
 * characters, control characters folded into spaces.
 */
export function redfishErrorMessage(body: unknown, text = ''): string {
  const parts: string[] = [];
  const err = isRecord(body) && isRecord(body['error']) ? body['error'] : isRecord(body) ? body : null;
  if (err) {
    if (typeof err['message'] === 'string') parts.push(err['message']);
    const ext = err['@Message.ExtendedInfo'];
    if (Array.isArray(ext)) {
      for (const e of ext) {
        const m = isRecord(e) ? e['Message'] : null;
        if (typeof m === 'string' && !parts.includes(m)) parts.push(m);
      }
    }
  }
  // NOTE: the BMC's words go into last_error: a short excerpt without control characters, never the whole body.
  const shown = excerpt(parts.length > 0 ? parts.join(' ') : text, MAX_SHOWN);
  return shown || 'no error message';
}
