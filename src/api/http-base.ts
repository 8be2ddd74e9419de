/**
 * What Ingot's HTTP APIs (the Ironic API and the ironic-inspector compatible one) share: the fastify
 * options, JSON bodies whatever the Content-Type says (as Ironic and ironic-inspector read them), and 405
 * with `Allow` for a known URL asked with another method.
 */
import type { IncomingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { parseJsonBodies } from '../shared/json-body.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A fastify instance with the shared options and body parsing (not listening). */
export function baseApp(bodyLimit: number, rewriteUrl?: (req: { url?: string | undefined; headers: IncomingHttpHeaders }) => string): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit,
    ...(rewriteUrl ? { rewriteUrl } : {}),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    return503OnClosing: true,
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
