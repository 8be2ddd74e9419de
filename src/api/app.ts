/**
 * The Ironic-compatible REST API v1 as a fastify instance: microversion negotiation and headers,
 * Ironic's error envelope for every non-2xx answer (404 for unknown URLs, 405 for wrong methods),
 * JSON bodies with a size limit, and one route plugin per resource. `buildApp` does not listen;
 * `ingot serve` calls `app.listen`.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { baseApp, withMethodNotAllowed } from './http-base.js';
import type { ApiDeps } from './context.js';
import { API_PUBLIC_ROUTES, registerAuth } from './auth/hook.js';
import { NOAUTH } from './auth/strategy.js';
import { errorMessage } from '../shared/errors.js';
import { errorBody, toApiError } from './errors.js';
import { MAX_MINOR, MIN_MINOR, parseVersion, versionHeaders } from './microversion.js';
import { rewriteJsonSuffix } from './resolve.js';
import { chassisRoutes } from './routes/chassis.js';
import { inspectionRuleRoutes } from './routes/inspection-rules.js';
import { conductorRoutes } from './routes/conductors.js';
import { driverRoutes } from './routes/drivers.js';
import { nodeHistoryRoutes } from './routes/node-history.js';
import { nodeInventoryRoutes } from './routes/node-inventory.js';
import { ramdiskRoutes } from './routes/ramdisk.js';
import { nodeManagementRoutes } from './routes/node-management.js';
import { nodeMiscRoutes } from './routes/node-misc.js';
import { nodeOobManagementRoutes } from './routes/node-oob-management.js';
import { nodeStateRoutes } from './routes/node-states.js';
import { nodeTraitRoutes } from './routes/node-traits.js';
import { nodeVmediaRoutes } from './routes/node-vmedia.js';
import { nodeRoutes } from './routes/nodes.js';
import { portgroupRoutes } from './routes/portgroups.js';
import { portRoutes } from './routes/ports.js';
import { rootRoutes } from './routes/root.js';

export type { ApiDeps } from './context.js';

/** Version headers per minor version, built once. */
const HEADERS: Record<string, string>[] = [];
for (let m = 0; m <= MAX_MINOR; m++) HEADERS.push(versionHeaders(Math.max(m, MIN_MINOR)));

/** Builds the API application (not listening). */
export function buildApp(deps: ApiDeps): FastifyInstance {
  // Before 1.91 a trailing `.json` on a path is dropped, as Ironic did.
  const app = baseApp(deps.config.max_body_bytes, rewriteJsonSuffix);
  app.decorateRequest('apiMinor', MIN_MINOR);

  app.addHook('onRequest', (req, reply, done) => {
    let minor = MIN_MINOR;
    try {
      minor = parseVersion(req.headers);
    } catch (err) {
      reply.headers(HEADERS[MIN_MINOR] as Record<string, string>);
      // Only the versioned API refuses a bad version; the root document answers anyway. NOTE: Ironic
      // answers a version it does not support with a webob error, whose inner document is
      // {code, title, description} rather than {faultcode, faultstring} (seen on Ironic 21.4).
      if (req.url !== '/' && !req.url.startsWith('/?')) {
        const e = toApiError(err, deps.config.max_body_bytes);
        void reply.code(e.status).header('x-ingot-error-code', e.code ?? 'NotAcceptable').type('application/json').send({
          error_message: JSON.stringify({ code: e.status, title: 'Not Acceptable', description: e.message }),
        });
        return;
      }
    }
    req.apiMinor = minor;
    reply.headers(HEADERS[minor] as Record<string, string>);
    // NOTE: Ironic 21.4 names this header Openstack-Request-Id (clients of that release print no
    // request id); the X- spelling came with microversion 1.107.
    reply.header('openstack-request-id', `req-${randomUUID()}`);
    done();
  });

  // After the version hook, which sets the request id: who is calling (api.auth_strategy).
  registerAuth(app, { strategy: deps.auth ?? NOAUTH, publicRoutes: API_PUBLIC_ROUTES, logger: deps.logger, errorBody });

  app.setErrorHandler((err, req, reply) => {
    const e = toApiError(err, req.routeOptions.bodyLimit ?? deps.config.max_body_bytes);
    if (e.internal) deps.logger.error({ err, method: req.method, url: req.url }, 'request failed');
    else if (e.status === 503) deps.logger.warn({ code: e.code, method: req.method, url: req.url }, `request refused for now: ${e.message}`);
    if (e.code) void reply.header('x-ingot-error-code', e.code);
    void reply
      .code(e.status)
      .headers(HEADERS[req.apiMinor] ?? (HEADERS[MIN_MINOR] as Record<string, string>))
      .type('application/json')
      .send(errorBody(e.status, e.message));
  });

  app.setNotFoundHandler((_req, reply) => {
    void reply.code(404).type('application/json').send(errorBody(404, errorMessage('resourceNotFound').message));
  });

  withMethodNotAllowed(
    app,
    () => {
      rootRoutes(app, deps);
      nodeRoutes(app, deps);
      nodeStateRoutes(app, deps);
      nodeManagementRoutes(app, deps);
      nodeOobManagementRoutes(app, deps);
      nodeVmediaRoutes(app, deps);
      nodeTraitRoutes(app, deps);
      nodeHistoryRoutes(app, deps);
      nodeInventoryRoutes(app, deps);
      ramdiskRoutes(app, deps);
      nodeMiscRoutes(app, deps);
      portRoutes(app, deps);
      portgroupRoutes(app, deps);
      chassisRoutes(app, deps);
      inspectionRuleRoutes(app, deps);
      driverRoutes(app, deps);
      conductorRoutes(app, deps);
    },
    (req, reply, allowed) => {
      void reply
        .code(405)
        .header('allow', allowed.join(', '))
        .type('application/json')
        .send(errorBody(405, errorMessage('methodNotAllowed', { method: req.method, allowed: allowed.join(', ') }).message));
    },
  );
  return app;
}
