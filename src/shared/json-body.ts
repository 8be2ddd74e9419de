/**
 * Request bodies as Ingot's HTTP servers read them (the Ironic API, the legacy inspector API, the Redfish
 * BMC emulator): JSON whatever the Content-Type says, or with none (Ironic, ironic-inspector and sushy's
 * peers send either), and a blank body as no body. A body must be valid UTF-8 (no silent replacement
 * characters) and nested at most {@link MAX_JSON_DEPTH} levels deep: deeper documents would overflow the
 * stack of every later `JSON.stringify`, `structuredClone` or recursive walk, so they never get in. A
 * `__proto__` key and NUL characters are refused too.
 */
import type { FastifyInstance } from 'fastify';

/**
 * How deep arrays and objects may nest in a request body. Ironic's own documents nest a handful of
 * levels (an inventory's LLDP data, a RAID configuration, deploy templates' steps); 100 leaves room
 * for any free-form `extra` a client keeps.
 */
export const MAX_JSON_DEPTH = 100;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The deepest nesting of arrays and objects in JSON `text`, counted without parsing (so a document too
 * deep to parse safely is measured in one linear pass); brackets inside strings do not count. Stops
 * counting once past `limit`.
 */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * A `JSON.parse` reviver refusing a `__proto__` key (it would turn into a prototype wherever the object is
 * later copied with assignment) and NUL characters in keys and strings (PostgreSQL cannot store them, and
 * names and paths must never carry them).
 */
function refuseHostile(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new SyntaxError('the key "__proto__" is not allowed');
  if (key.includes('\0') || (typeof value === 'string' && value.includes('\0'))) throw new SyntaxError('strings may not contain NUL characters (\\u0000)');
  return value;
}

/**
 * Replaces `app`'s body parsers with one that reads every body as JSON: a blank body gives `undefined`;
 * one that is not JSON, not UTF-8 or nested deeper than {@link MAX_JSON_DEPTH} fails the request with
 * `malformed(syntaxError)` (by default the SyntaxError itself, for the server's error handler to map).
 * The size limit stays the instance's `bodyLimit`.
 */
export function parseJsonBodies(app: FastifyInstance, malformed: (err: Error) => Error = (err) => err): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => {
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      return done(malformed(new SyntaxError('the body is not valid UTF-8')), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return done(malformed(new SyntaxError(`arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`)), undefined);
    }
    try {
      // Only a document with an escape can hide a NUL or spell `__proto__` in a way the fast test misses.
      done(null, text.includes('\\u') || text.includes('__proto__') ? JSON.parse(text, refuseHostile) : JSON.parse(text));
    } catch (err) {
      done(malformed(err as Error), undefined);
    }
  });
}
