/**
 * Errors the client reports: a remote error decoded from Ironic's envelope, and the outcome of a
 * `--wait` that did not end where it should. Both render as one line on stderr.
 */
import type { WireFault } from '../protocol/client/wire.js';

/** An error answer of the API: its HTTP status and the server's fault string. */
export class ApiError extends Error {
  readonly status: number;
  readonly faultcode: string | undefined;

  constructor(status: number, message: string, faultcode?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.faultcode = faultcode;
  }
}

/** A `--wait` that ended in a failure state, timed out, or settled elsewhere than expected. */
export class WaitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WaitError';
  }
}

/**
 * The fault string of an error body. Ironic sends `{"error_message": "<json>"}` where the string is
 * itself `{"faultcode", "faultstring", "debuginfo"}`; some servers send the inner object directly or a
 * plain string. Falls back to the raw text, then to the HTTP reason phrase.
 */
export function faultOf(bodyText: string, statusText: string): { message: string; faultcode?: string } {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    const text = bodyText.trim();
    return { message: oneLine(text || statusText || 'no error message') };
  }
  const envelope = isObject(body) ? body['error_message'] : undefined;
  let fault: unknown = envelope;
  if (typeof envelope === 'string') {
    try {
      fault = JSON.parse(envelope);
    } catch {
      return { message: oneLine(envelope) };
    }
  }
  if (isObject(fault)) {
    const f = fault as WireFault;
    if (typeof f.faultstring === 'string') {
      return f.faultcode !== undefined ? { message: oneLine(f.faultstring), faultcode: f.faultcode } : { message: oneLine(f.faultstring) };
    }
  }
  if (typeof fault === 'string') return { message: oneLine(fault) };
  if (isObject(body) && typeof body['message'] === 'string') return { message: oneLine(body['message']) };
  return { message: oneLine(bodyText.trim() || statusText || 'no error message') };
}

/** The one-line rendering of anything thrown by a client command. */
export function renderError(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (HTTP ${err.status})`;
  if (err instanceof Error) return oneLine(err.message);
  return oneLine(String(err));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
