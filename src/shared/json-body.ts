/**
 * Request bodies as Ingot's HTTP servers read them (the Ironic API, the legacy inspector API, the Redfish
 * BMC emulator): JSON whatever the Content-Type says, or with none (Ironic, ironic-inspector and sushy's
 * peers send either), and a blank body as no body.
 */
import type { FastifyInstance } from 'fastify';

/**
 * Replaces `app`'s body parsers with one that reads every body as JSON: a blank body gives `undefined`;
 * one that is not JSON fails the request with `malformed(syntaxError)` (by default the SyntaxError
 * itself, for the server's error handler to map). The size limit stays the instance's `bodyLimit`.
 */
export function parseJsonBodies(app: FastifyInstance, malformed: (err: Error) => Error = (err) => err): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(malformed(err as Error), undefined);
    }
  });
}
