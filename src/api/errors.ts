/**
 * Ironic's error envelope: every non-2xx body is `{"error_message": "<json>"}`, where the string is a
 * JSON document `{"faultcode": "Client"|"Server", "faultstring": "...", "debuginfo": null}`.
 * `toApiError` turns anything thrown (IngotError, fastify's own errors, bugs) into a status and message.
 */
import { fail, IngotError } from '../shared/errors.js';
import { MAX_PARAM_LENGTH } from './http-base.js';

/** The envelope body for `status` and `message`. */
export function errorBody(status: number, message: string): { error_message: string } {
  return {
    error_message: JSON.stringify({ faultcode: status >= 500 ? 'Server' : 'Client', faultstring: message, debuginfo: null }),
  };
}

export interface ApiError {
  status: number;
  message: string;
  /** True for errors that are bugs (logged with their stack). */
  internal: boolean;
  /** The stable code of docs/errors.md, sent as `X-Ingot-Error-Code`. */
  code?: string;
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

function fromIngotError(err: IngotError): ApiError {
  // 503 (no free worker, no conductor) is back-pressure the client retries, not a fault of Ingot.
  return { status: err.status, message: err.message, internal: err.status >= 500 && err.status !== 503, code: err.code };
}

/** Maps anything thrown while answering a request to the status and message the client sees. */
export function toApiError(err: unknown, maxBodyBytes: number): ApiError {
  if (err instanceof IngotError) return fromIngotError(err);
  const e = (err ?? {}) as FastifyLikeError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // 413, as Ironic's API answers a body over `[api]max_json_body_size` (its JSON body middleware).
      return fromIngotError(fail('bodyTooLarge', { limit: maxBodyBytes }));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return fromIngotError(fail('bodyEmpty'));
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return fromIngotError(fail('bodyLengthMismatch'));
    case 'FST_ERR_BAD_URL':
      return fromIngotError(fail('urlMalformed'));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return fromIngotError(fail('urlParamTooLong', { max: MAX_PARAM_LENGTH }, { status: 414 }));
    default:
      break;
  }
  if (err instanceof SyntaxError) return fromIngotError(fail('bodyMalformed', { reason: err.message }));
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, message: e.message ?? 'Bad request.', internal: false };
  }
  return fromIngotError(fail('internalError'));
}
