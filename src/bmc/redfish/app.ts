/**
 * The Redfish BMC emulator as a fastify instance (not listening): every machine of the fleet appears as
 * one ComputerSystem, one Manager (its BMC) and one Chassis of a single Redfish service. Callers log in
 * with the BMC credentials of a machine (Basic or a session) and see only the machines those credentials
 * open. `startRedfishEmulator` listens; tests use `inject()`.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { systemClock, type Clock } from '../../shared/clock.js';
import { parseJsonBodies } from '../../shared/json-body.js';
import type { Logger } from '../../shared/logger.js';
import type { Machine } from '../machine.js';
import { canLogIn, parseBasic, SessionStore } from './auth.js';
import { candidates, setPrincipal, type EmulatorContext } from './context.js';
import { internalError, malformedJson, notFound, RedfishError, redfishErrorBody, unauthorized } from './errors.js';
import { V1 } from './odata.js';
import { chassisRoutes } from './routes/chassis.js';
import { managerRoutes } from './routes/managers.js';
import { rootRoutes } from './routes/root.js';
import { sessionRoutes } from './routes/sessions.js';
import { systemRoutes } from './routes/systems.js';
import { taskRoutes } from './routes/tasks.js';
import { managerId } from './system-resources.js';
import { TaskStore } from './tasks.js';

/** Options of the emulator's application (everything but where it listens). */
export interface RedfishAppOptions {
  machines: Machine[];
  logger?: Logger;
  /** Idle time after which a session ends (the SessionService's `SessionTimeout`); default 30 minutes. */
  sessionTimeoutMs?: number;
  /**
   * Answer actions with 202 Accepted and a task monitor instead of 204: `true` for Reset and virtual
   * media, or one of them. Lets clients' task-monitor support be tested.
   */
  asyncActions?: boolean | { reset?: boolean; virtualMedia?: boolean };
  /** How long an asynchronous action's task runs at least; default 500 ms. */
  taskDurationMs?: number;
  clock?: Clock;
  /** Source of randomness for the `error_rate` fault; default `Math.random`. */
  random?: () => number;
  /** TLS key and certificate (PEM) to serve HTTPS with. */
  https?: { key: string; cert: string };
}

export const DEFAULT_SESSION_TIMEOUT_MS = 30 * 60 * 1000;

/** The request path without query string, duplicate and trailing slashes. */
function normalPath(req: FastifyRequest): string {
  const p = (req.url.split('?')[0] ?? '').replace(/\/{2,}/g, '/');
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** Readable without credentials (DSP0266 §13.3.1): the version document, the service root, login. */
function isPublic(req: FastifyRequest): boolean {
  const p = normalPath(req);
  if (req.method === 'GET' || req.method === 'HEAD') return p === '/redfish' || p === V1;
  return req.method === 'POST' && p === `${V1}/SessionService/Sessions`;
}

/** Builds the emulator's application for `opts.machines`. */
export function buildRedfishApp(opts: RedfishAppOptions): FastifyInstance {
  const machines = new Map<string, Machine>();
  const byUser = new Map<string, Machine[]>();
  const byManagerId = new Map<string, Machine>();
  for (const m of opts.machines) {
    if (machines.has(m.name)) throw new Error(`duplicate machine name ${m.name}`);
    machines.set(m.name, m);
    byManagerId.set(managerId(m), m);
    const same = byUser.get(m.username);
    if (same) same.push(m);
    else byUser.set(m.username, [m]);
  }
  const clock = opts.clock ?? systemClock;
  const closing = new AbortController();
  const asyncActions = opts.asyncActions ?? false;
  const ctx: EmulatorContext = {
    machines,
    byUser,
    byManagerId,
    sessions: new SessionStore(opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS, clock),
    tasks: new TaskStore(clock, opts.taskDurationMs ?? 500, closing.signal),
    floppy: new Map(),
    asyncReset: asyncActions === true || (typeof asyncActions === 'object' && asyncActions.reset === true),
    asyncMedia: asyncActions === true || (typeof asyncActions === 'object' && asyncActions.virtualMedia === true),
    serviceUuid: randomUUID(),
    signal: closing.signal,
    random: opts.random ?? Math.random,
  };

  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    ...(opts.https ? { https: opts.https } : {}),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  // Clients send JSON with or without a Content-Type (sushy posts actions without a body at all).
  parseJsonBodies(app, () => malformedJson());

  app.addHook('onRequest', async (req) => {
    if (isPublic(req)) return;
    const token = req.headers['x-auth-token'];
    if (typeof token === 'string' && token !== '') {
      const session = ctx.sessions.use(token);
      if (!session) throw unauthorized();
      setPrincipal(req, session.principal);
      return;
    }
    const basic = parseBasic(req.headers.authorization);
    if (!basic || !canLogIn(basic, candidates(ctx, basic))) throw unauthorized();
    setPrincipal(req, basic);
  });

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('odata-version', '4.0');
    if (payload !== undefined && payload !== null && payload !== '') reply.header('content-type', 'application/json; charset=utf-8');
    return payload;
  });

  app.setErrorHandler((err: FastifyError | RedfishError, req, reply) => {
    let e: RedfishError;
    if (err instanceof RedfishError) e = err;
    else if (err.statusCode === 400 || err.statusCode === 415) e = malformedJson();
    else if (err.statusCode === 413) e = new RedfishError(413, 'PayloadTooLarge', 'The request body is too large.');
    else if (closing.signal.aborted) e = new RedfishError(503, 'ServiceShuttingDown', 'The service is shutting down and can no longer take incoming requests.');
    else {
      req.log.error({ err }, 'redfish emulator: unexpected failure');
      e = internalError();
    }
    void reply.code(e.status).headers(e.headers).send(redfishErrorBody(e));
  });

  // fastify answers an unknown method of a known URI with 404; Redfish wants 405 with `Allow`.
  const patterns: { methods: string[]; regex: RegExp; wild: boolean }[] = [];
  app.addHook('onRoute', (route) => {
    const source = route.url.replace(/[.$]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*');
    patterns.push({ methods: ([] as string[]).concat(route.method), regex: new RegExp(`^${source}$`), wild: route.url.includes('*') });
  });

  app.setNotFoundHandler((req, reply) => {
    const path = normalPath(req);
    const matching = patterns.filter((p) => p.regex.test(path));
    // A wildcard route (the system's sub-resources) counts only where no exact route matches.
    const exact = matching.filter((p) => !p.wild);
    const allowed = [...new Set((exact.length > 0 ? exact : matching).flatMap((p) => p.methods))];
    if (allowed.length > 0) {
      const e = new RedfishError(405, 'GeneralError', `The HTTP method ${req.method} is not allowed on ${path}.`, [], [], `Use one of ${allowed.join(', ')}.`, { allow: allowed.join(', ') });
      return void reply.code(405).headers(e.headers).send(redfishErrorBody(e));
    }
    void reply.code(404).send(redfishErrorBody(notFound(path)));
  });

  app.addHook('preClose', async () => closing.abort(new Error('the Redfish emulator is closing')));

  rootRoutes(app, ctx);
  sessionRoutes(app, ctx);
  systemRoutes(app, ctx);
  managerRoutes(app, ctx);
  chassisRoutes(app, ctx);
  taskRoutes(app, ctx);
  return app;
}
