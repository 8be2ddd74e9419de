/**
 * The authentication of an HTTP API (the REST API and the ironic-inspector compatible one), as Ironic's
 * auth middleware and ContextHook: every request but those to the public routes is authenticated by the
 * strategy before its body is read; its request context (who, and the request id of the answer) is
 * `req.requestContext`, and the handler and the conductor calls it makes run in it. A refusal is 401 with
 * `WWW-Authenticate: Basic realm="Baremetal API"` (400 for a header that does not parse) in the API's
 * error envelope. A change (any method but GET and HEAD) is logged when answered, with who made it.
 *
 * Public routes are route patterns as registered (`/v1/heartbeat/:node`), not URL texts: what is public is
 * decided by the route the request reached, so no spelling of a URL (escapes, slashes, `.json`) can
 * reach a protected route as a public one.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../shared/logger.js';
import { runInRequestContext, type RequestContext } from '../../shared/request-context.js';
import { toApiError } from '../errors.js';
import { ANONYMOUS, type AuthStrategy, type Identity } from './strategy.js';

/** Ironic's realm (ironic-lib's `Unauthorized`). */
export const WWW_AUTHENTICATE = 'Basic realm="Baremetal API"';

/** The routes of the REST API anyone may call, as Ironic's `acl_public_routes`: the version documents and the agent's. */
export const API_PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/', '/v1', '/v1/lookup', '/v1/heartbeat/:node', '/v1/continue_inspection']);

/** The routes of the ironic-inspector compatible API anyone may call: its version documents and the agent's `/v1/continue`. */
export const INSPECTOR_PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/', '/v1', '/v1/continue']);

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made the request (the strategy's identity, or nobody on a public route) and its request id. */
    requestContext: RequestContext;
  }
}

export interface AuthHookOptions {
  strategy: AuthStrategy;
  publicRoutes: ReadonlySet<string>;
  logger: Logger;
  /** The body of an error answer, in the API's envelope. */
  errorBody: (status: number, message: string) => unknown;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * Adds the hooks to `app`. The request id is the `openstack-request-id` header an earlier `onRequest`
 * hook set, or a new one.
 */
export function registerAuth(app: FastifyInstance, opts: AuthHookOptions): void {
  const { strategy, publicRoutes, logger, errorBody } = opts;
  app.decorateRequest('requestContext', null as unknown as RequestContext);

  app.addHook('onRequest', (req, reply, done) => {
    const header = reply.getHeader('openstack-request-id');
    const requestId = typeof header === 'string' ? header : `req-${crypto.randomUUID()}`;
    const accept = (identity: Identity) => {
      req.requestContext = { request_id: requestId, ...identity };
      done();
    };
    const refuse = (err: unknown) => {
      const e = toApiError(err, 0);
      if (e.internal) logger.error({ err, request_id: requestId }, 'authentication failed');
      if (e.status === 401) void reply.header('www-authenticate', WWW_AUTHENTICATE);
      if (e.code) void reply.header('x-ingot-error-code', e.code);
      void reply.code(e.status).type('application/json').send(errorBody(e.status, e.message));
    };
    const route = req.routeOptions.url;
    if (route !== undefined && publicRoutes.has(route)) return accept(ANONYMOUS);
    let identity: Identity | Promise<Identity>;
    try {
      identity = strategy.authenticate(req.headers);
    } catch (err) {
      return refuse(err);
    }
    if (identity instanceof Promise) identity.then(accept, refuse);
    else accept(identity);
  });

  // The handler runs in the request's context, and so does the conductor's work it starts.
  app.addHook('preHandler', (req, _reply, done) => runInRequestContext(req.requestContext ?? undefined, done));

  app.addHook('onResponse', (req, reply, done) => {
    const rc = req.requestContext as RequestContext | null;
    if (rc && !READS.has(req.method)) {
      const who: Record<string, string> = { request_id: rc.request_id };
      if (rc.user !== undefined) who.user = rc.user;
      if (rc.project !== undefined) who.project = rc.project;
      logger.child(who).info({ method: req.method, url: req.url, status: reply.statusCode }, `${req.method} ${req.url} ${reply.statusCode}${rc.user !== undefined ? ` by ${rc.user}` : ''}`);
    }
    done();
  });
}
