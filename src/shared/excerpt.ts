/**
 * Short, printable excerpts of what a remote peer sent (a checksum file, a BMC's error body, a redirect's
 * Location) for messages that end up in `last_error`, the logs and API answers: never the whole body,
 * never a control character that could forge a log line or a terminal escape.
 */

/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * `text` with runs of whitespace and control characters folded into one space, trimmed, and cut to at
 * most `max` characters (then ending in `…`).
 */
export function excerpt(text: string, max: number): string {
  const clean = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  // NOTE: cut by code points, so a surrogate pair is never split into a lone half.
  return `${Array.from(clean).slice(0, Math.max(0, max - 1)).join('')}…`;
}
