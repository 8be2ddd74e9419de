/** The Redfish driver's error: a DriverOperationError that also carries the BMC's HTTP status. */
import { IngotError, type ErrorCode } from '../../shared/errors.js';

export class RedfishError extends IngotError {
  /** The BMC's HTTP status, or null when no HTTP answer came (connection failure, timeout). */
  readonly httpStatus: number | null;

  constructor(message: string, httpStatus: number | null, options?: { cause?: unknown; code?: ErrorCode }) {
    super(options?.code ?? 'DriverOperationError', message, options);
    this.httpStatus = httpStatus;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The human part of a Redfish error body (DSP0266 §9.6 "Error responses"): `error.message` followed by the
 * `Message` of each `@Message.ExtendedInfo` entry; falls back to the raw text, shortened.
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
  if (parts.length > 0) return parts.join(' ');
  const raw = text.trim().replace(/\s+/g, ' ');
  return raw ? (raw.length > 300 ? `${raw.slice(0, 300)}…` : raw) : 'no error message';
}
