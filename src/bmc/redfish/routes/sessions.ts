/**
 * /redfish/v1/SessionService and its Sessions (DSP0266 §13.3): POST of `{UserName, Password}` opens a
 * session (201, `X-Auth-Token` and `Location` headers), DELETE closes it. Sessions end after
 * `SessionTimeout` seconds without use.
 */
import type { FastifyInstance } from 'fastify';
import { canLogIn, type RedfishSession } from '../auth.js';
import { bodyObject, candidates, pathOf, principalOf, type EmulatorContext } from '../context.js';
import { actionParameterMissing, notFound, propertyUnknown, RedfishError, unauthorized, valueTypeError } from '../errors.js';
import { collection, odata, ref, V1 } from '../odata.js';

const SESSIONS = `${V1}/SessionService/Sessions`;

/** DMTF's bounds of `SessionTimeout`, in seconds. */
const MIN_TIMEOUT_S = 30;
const MAX_TIMEOUT_S = 86400;

function sessionUri(s: RedfishSession): string {
  return `${SESSIONS}/${s.id}`;
}

function renderSession(s: RedfishSession): Record<string, unknown> {
  return {
    ...odata(sessionUri(s), '#Session.v1_3_0.Session'),
    Id: s.id,
    Name: 'User Session',
    Description: 'Manager User Session',
    UserName: s.principal.username,
    CreatedTime: new Date(s.createdAt).toISOString(),
  };
}

export function sessionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(`${V1}/SessionService`, async () => ({
    ...odata(`${V1}/SessionService`, '#SessionService.v1_1_8.SessionService'),
    Id: 'SessionService',
    Name: 'Session Service',
    Description: 'Session Service',
    ServiceEnabled: true,
    SessionTimeout: Math.round(ctx.sessions.timeoutMs / 1000),
    Status: { State: 'Enabled', Health: 'OK' },
    Sessions: ref(SESSIONS),
  }));

  app.patch(`${V1}/SessionService`, async (req, reply) => {
    const body = bodyObject(req);
    for (const key of Object.keys(body)) if (key !== 'SessionTimeout') throw propertyUnknown(key, `#/${key}`);
    const t = body.SessionTimeout;
    if (t !== undefined) {
      if (typeof t !== 'number' || !Number.isInteger(t)) throw valueTypeError('SessionTimeout', t, '#/SessionTimeout');
      if (t < MIN_TIMEOUT_S || t > MAX_TIMEOUT_S) {
        throw new RedfishError(400, 'PropertyValueOutOfRange', `The value ${t} for the property SessionTimeout is not in the supported range of acceptable values.`, [String(t), 'SessionTimeout'], ['#/SessionTimeout']);
      }
      ctx.sessions.timeoutMs = t * 1000;
    }
    return reply.code(204).send();
  });

  app.get(SESSIONS, async (req) => {
    const mine = ctx.sessions.list(principalOf(req));
    return collection(SESSIONS, 'Session Collection', 'SessionCollection', mine.map(sessionUri));
  });

  // Public: this is how a client logs in.
  app.post(SESSIONS, async (req, reply) => {
    const body = bodyObject(req);
    const { UserName: username, Password: password } = body;
    if (username === undefined) throw actionParameterMissing('Session.Create', 'UserName');
    if (password === undefined) throw actionParameterMissing('Session.Create', 'Password');
    if (typeof username !== 'string') throw valueTypeError('UserName', username, '#/UserName');
    if (typeof password !== 'string') throw valueTypeError('Password', password, '#/Password');
    const principal = { username, password };
    if (!canLogIn(principal, candidates(ctx, principal))) throw unauthorized();
    const session = ctx.sessions.create(principal);
    return reply.code(201).header('x-auth-token', session.token).header('location', sessionUri(session)).send(renderSession(session));
  });

  app.get<{ Params: { id: string } }>(`${SESSIONS}/:id`, async (req) => {
    const p = principalOf(req);
    const s = ctx.sessions.get(req.params.id);
    if (!s || s.principal.username !== p.username || s.principal.password !== p.password) throw notFound(pathOf(req));
    return renderSession(s);
  });

  app.delete<{ Params: { id: string } }>(`${SESSIONS}/:id`, async (req, reply) => {
    const p = principalOf(req);
    const s = ctx.sessions.get(req.params.id);
    if (!s || s.principal.username !== p.username || s.principal.password !== p.password) throw notFound(pathOf(req));
    ctx.sessions.delete(s.id);
    return reply.code(204).send();
  });
}
