/** Parsing of the HTTP `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. */

/** Milliseconds to wait as `Retry-After` asks, or null when absent or malformed. */
export function retryAfterMs(value: string | string[] | undefined, now: number = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
