/**
 * What Ingot's HTTP APIs (the Ironic API and the ironic-inspector compatible one) share: the fastify
 * options, JSON bodies whatever the Content-Type says (as Ironic and ironic-inspector read them), and 405
 * with `Allow` for a known URL asked with another method.
 */
import type { IncomingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { parseJsonBodies } from '../shared/json-body.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The longest path parameter the router takes. Ironic's names run to 255 characters and a percent-encoded
 * one to three times that; anything longer still reaches the error handler (414 in the API's envelope)
 * rather than fastify's own body.
 */
export const MAX_PARAM_LENGTH = 1024;

/** A fastify instance with the shared options and body parsing (not listening). */
export function baseApp(bodyLimit: number, rewriteUrl?: (req: { url?: string | undefined; headers: IncomingHttpHeaders }) => string): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit,
    ...(rewriteUrl ? { rewriteUrl } : {}),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
    // A malformed percent escape or an over-long parameter is refused before routing: hand it to the
    // error handler the API sets on the instance, so it answers in the API's envelope.
    frameworkErrors: (err, req, reply) => void app.errorHandler(err, req, reply),
  });
  parseJsonBodies(app);
  return app;
}

/**
 * Registers routes with `register`, then makes every other method of their URLs answer through
 * `notAllowed` (405) instead of 404.
 */
export function withMethodNotAllowed(
  app: FastifyInstance,
  register: () => void,
  notAllowed: (req: FastifyRequest, reply: FastifyReply, allowed: readonly string[]) => void,
): void {
  const methodsByUrl = new Map<string, Set<string>>();
  let collecting = true;
  app.addHook('onRoute', (route) => {
    if (!collecting) return;
    const set = methodsByUrl.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) set.add(m);
    methodsByUrl.set(route.url, set);
  });
  register();
  collecting = false;
  for (const [url, methods] of methodsByUrl) {
    const allowed = METHODS.filter((m) => methods.has(m));
    const missing = METHODS.filter((m) => !methods.has(m));
    if (missing.length === 0) continue;
    app.route({ method: [...missing], url, handler: (req, reply) => notAllowed(req, reply, allowed) });
  }
}
