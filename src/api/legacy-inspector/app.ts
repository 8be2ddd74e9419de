/**
 * A listener compatible with the legacy ironic-inspector API v1 (its port was 5050), for deployments
 * and clients built around it (python-ironic-inspector-client, openstacksdk `baremetal_introspection`).
 * It is a view over Ingot's own in-band inspection: introspection status comes from the node, data
 * from the stored inventory, and starting or aborting goes through the conductor. `buildInspectorApp`
 * does not listen; `ingot serve` listens on `api.inspector_port`.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { baseApp, withMethodNotAllowed } from '../http-base.js';
import type { ApiDeps } from '../context.js';
import { INSPECTOR_PUBLIC_ROUTES, registerAuth } from '../auth/hook.js';
import { NOAUTH } from '../auth/strategy.js';
import { errorMessage } from '../../shared/errors.js';
import { toApiError } from '../errors.js';
import { inspectorErrorBody } from './errors.js';
import { introspectionRoutes } from './routes.js';
import { legacyRuleRoutes } from './rules.js';
import { INSPECTOR_MIN_MINOR, inspectorVersionHeaders, parseInspectorVersion } from './version.js';


declare module 'fastify' {
  interface FastifyRequest {
    /** The requested ironic-inspector API minor version (1.Y). */
    inspectorMinor: number;
  }
}

/** Builds the ironic-inspector compatible application (not listening). */
export function buildInspectorApp(deps: ApiDeps): FastifyInstance {
  const app = baseApp(deps.config.max_body_bytes);
  app.decorateRequest('inspectorMinor', INSPECTOR_MIN_MINOR);

  app.addHook('onRequest', (req, reply, done) => {
    reply.header('openstack-request-id', `req-${randomUUID()}`);
    try {
      req.inspectorMinor = parseInspectorVersion(req.headers);
    } catch (err) {
      reply.headers(inspectorVersionHeaders(INSPECTOR_MIN_MINOR));
      const e = toApiError(err, deps.config.max_body_bytes);
      void reply.code(e.status).type('application/json').send(inspectorErrorBody(e.message));
      return;
    }
    reply.headers(inspectorVersionHeaders(req.inspectorMinor));
    done();
  });

  registerAuth(app, { strategy: deps.auth ?? NOAUTH, publicRoutes: INSPECTOR_PUBLIC_ROUTES, logger: deps.logger, errorBody: (_status, message) => inspectorErrorBody(message) });

  app.setErrorHandler((err, req, reply) => {
    const e = toApiError(err, req.routeOptions.bodyLimit ?? deps.config.max_body_bytes);
    if (e.internal) deps.logger.error({ err, method: req.method, url: req.url }, 'inspector API request failed');
    if (e.code) void reply.header('x-ingot-error-code', e.code);
    void reply.code(e.status).headers(inspectorVersionHeaders(req.inspectorMinor)).type('application/json').send(inspectorErrorBody(e.message));
  });

  app.setNotFoundHandler((_req, reply) => {
    void reply.code(404).type('application/json').send(inspectorErrorBody(errorMessage('urlNotFound').message));
  });

  withMethodNotAllowed(
    app,
    () => {
      introspectionRoutes(app, deps);
      legacyRuleRoutes(app, deps);
    },
    (req, reply, allowed) => {
      void reply
        .code(405)
        .header('allow', allowed.join(', '))
        .type('application/json')
        .send(inspectorErrorBody(errorMessage('inspectorMethodNotAllowed', { method: req.method }).message));
    },
  );
  return app;
}
