/**
 * Authentication of the REST API and the ironic-inspector compatible API with `http_basic`, on the real
 * conductor and a SQLite store: what is public (as Ironic's `acl_public_routes`), the 401 every other
 * request gets without the right credentials (and that it changes nothing), and who made a change, in
 * the node history (`user`, 1.78) and in the log line of the request.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/api/app.js';
import { httpBasicStrategy } from '../src/api/auth/http-basic.js';
import { buildInspectorApp } from '../src/api/legacy-inspector/app.js';
import { faultString, testApiConfig } from '../src/api/app.test-support.js';
import { startTestConductor, waitForState, type TestConductor } from '../src/conductor/conductor.test-support.js';
import type { AuthStrategy } from '../src/api/auth/strategy.js';
import { overContract } from './support/contract.js';

const V = { 'x-openstack-ironic-api-version': '1.82' };
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ALICE = { ...V, ...basic('alice', 'wonderland') };

let t: TestConductor;
let app: FastifyInstance;
let inspector: FastifyInstance;
let auth: AuthStrategy;
let dir: string;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-api-auth-'));
  const file = path.join(dir, 'htpasswd');
  await writeFile(file, `alice:${bcrypt.hashSync('wonderland', 4)}\n`);
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _e, cb) => (logged.push(JSON.parse(String(chunk)) as Record<string, unknown>), cb()) }));
  auth = httpBasicStrategy({ path: file, logger });
  t = await startTestConductor();
  const deps = { store: t.store, conductor: overContract(t.conductor.client), config: testApiConfig(), logger, auth };
  app = buildApp(deps);
  inspector = buildInspectorApp(deps);
  await Promise.all([app.ready(), inspector.ready()]);
});
afterAll(async () => {
  await app?.close();
  await inspector?.close();
  await t?.close();
  auth?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Asserts a 401 with Ironic's realm and error envelope. */
function expectUnauthorized(res: { statusCode: number; headers: Record<string, unknown>; body: string }, message = 'Authorization required'): void {
  expect(res.statusCode, res.body).toBe(401);
  expect(res.headers['www-authenticate']).toBe('Basic realm="Baremetal API"');
  expect(res.headers['x-ingot-error-code']).toBe('Unauthorized');
  expect(faultString(res.body)).toBe(message);
}

describe('http_basic on the REST API', () => {
  it('refuses every protected request without the right credentials, whatever the URL looks like, and changes nothing', async () => {
    const wrong = { ...V, ...basic('alice', 'queen') };
    for (const url of ['/v1/nodes', '/v1/nodes.json', '//v1//nodes/', '/v1/nodes/detail', '/v1/drivers', '/v1/ports', '/v1/no-such-thing', '/v1/lookup/x', '/v1/heartbeat']) {
      expectUnauthorized(await app.inject({ method: 'GET', url, headers: V }));
    }
    expectUnauthorized(await app.inject({ method: 'GET', url: '/v1/nodes', headers: wrong }), 'Incorrect username or password');
    expectUnauthorized(await app.inject({ method: 'POST', url: '/v1/nodes', headers: wrong, payload: { driver: 'fake-hardware', name: 'intruder' } }), 'Incorrect username or password');
    expectUnauthorized(await app.inject({ method: 'POST', url: '/v1/nodes', headers: V, payload: { driver: 'fake-hardware', name: 'intruder' } }));
    const bearer = await app.inject({ method: 'GET', url: '/v1/nodes', headers: { ...V, authorization: 'Bearer x' } });
    expect([bearer.statusCode, faultString(bearer.body)]).toEqual([400, 'Unsupported authorization type "Bearer"']);
    await expect(t.store.nodes.get('intruder')).rejects.toMatchObject({ code: 'NodeNotFound' });
  });

  it('answers the version documents and the agent endpoints without credentials, as Ironic', async () => {
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v1' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v1/' })).statusCode).toBe(200);
    const lookup = await app.inject({ method: 'GET', url: '/v1/lookup?addresses=52:54:00:00:00:01', headers: V });
    expect([lookup.statusCode, lookup.headers['www-authenticate']]).toEqual([404, undefined]);
    const heartbeat = await app.inject({ method: 'POST', url: '/v1/heartbeat/5c2c3b8e-0f39-4c8f-9a53-2b8d1f0e6a11', headers: V, payload: { callback_url: 'http://127.0.0.1:9999' } });
    expect(heartbeat.statusCode, heartbeat.body).not.toBe(401);
    expect(heartbeat.headers['www-authenticate']).toBeUndefined();
    const inspection = await app.inject({ method: 'POST', url: '/v1/continue_inspection', headers: V, payload: { inventory: {} } });
    expect(inspection.statusCode).not.toBe(401);
    expect(inspection.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('lets the user act, records who in the node history and in the log line of each change', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/nodes', headers: ALICE, payload: { driver: 'fake-hardware', name: 'n1' } });
    expect(created.statusCode, created.body).toBe(201);
    const requestId = created.headers['openstack-request-id'];
    expect(requestId).toMatch(/^req-/);
    const manage = await app.inject({ method: 'PUT', url: '/v1/nodes/n1/states/provision', headers: ALICE, payload: { target: 'manage' } });
    expect(manage.statusCode, manage.body).toBe(202);
    await waitForState(t.store, 'n1', 'manageable');
    const history = await app.inject({ method: 'GET', url: '/v1/nodes/n1/history?detail=True', headers: { ...ALICE, 'x-openstack-ironic-api-version': '1.78' } });
    const events = (JSON.parse(history.body) as { history: { event: string; user: string | null }[] }).history;
    expect(events.map((e) => [e.event, e.user])).toEqual([
      ['enroll -> verifying (manage)', 'alice'],
      ['verifying -> manageable (done)', 'alice'],
    ]);
    expect(logged).toContainEqual(expect.objectContaining({ request_id: requestId, user: 'alice', method: 'POST', url: '/v1/nodes', status: 201 }));
    expect(logged).toContainEqual(expect.objectContaining({ user: 'alice', method: 'PUT', url: '/v1/nodes/n1/states/provision', status: 202, request_id: manage.headers['openstack-request-id'] }));
    expect(JSON.stringify(logged)).not.toContain('wonderland');
  });
});

describe('http_basic on the ironic-inspector compatible API', () => {
  it('protects introspection and rules, and leaves the version documents and the agent’s /v1/continue public', async () => {
    for (const url of ['/v1/introspection', '/v1/rules', '/v1/introspection/n1']) expect((await inspector.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    const denied = await inspector.inject({ method: 'POST', url: '/v1/introspection/n1' });
    expect([denied.statusCode, denied.headers['www-authenticate']]).toEqual([401, 'Basic realm="Baremetal API"']);
    expect(JSON.parse(denied.body)).toEqual({ error: { message: 'Authorization required' } });
    expect((await inspector.inject({ method: 'GET', url: '/v1/introspection', headers: basic('alice', 'wonderland') })).statusCode).toBe(200);
    expect((await inspector.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    expect((await inspector.inject({ method: 'GET', url: '/v1' })).statusCode).toBe(200);
    expect((await inspector.inject({ method: 'POST', url: '/v1/continue', payload: { inventory: {} } })).statusCode).not.toBe(401);
  });
});
