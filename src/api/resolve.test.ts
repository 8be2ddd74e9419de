import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../db/open-store.js';
import type { Store } from '../db/store.js';
import { silentLogger } from '../shared/logger.js';
import type { ApiDeps } from './context.js';
import { toApiError, errorBody } from './errors.js';
import { getNode, hadJsonSuffix, rewriteJsonSuffix, stripJsonSuffix } from './resolve.js';
import { MIN_MINOR, parseVersion } from './microversion.js';
import { portRoutes } from './routes/ports.js';
import { overContract } from '../../test/support/contract.js';
import { FakeConductor } from '../../test/support/fake-conductor.js';
import { testApiConfig, version as V } from './app.test-support.js';

describe('stripJsonSuffix (Ironic before 1.91)', () => {
  it.each([
    ['/v1/nodes/test.json', 90, '/v1/nodes/test'],
    ['/v1/nodes.json', 1, '/v1/nodes'],
    ['/v1/nodes/test.json/', 90, '/v1/nodes/test'],
    ['/v1/nodes/test.json//', 90, '/v1/nodes/test'],
    ['/v1/ports/detail.json?fields=uuid&limit=2', 50, '/v1/ports/detail?fields=uuid&limit=2'],
    ['/v1/nodes/test.json.json', 90, '/v1/nodes/test.json'],
    ['/.json', 1, '/'],
  ])('%s at 1.%d routes as %s', (url, minor, out) => {
    expect(stripJsonSuffix(url, minor)).toBe(out);
  });

  it.each([
    ['/v1/nodes/test.json', 91],
    ['/v1/nodes/test.json', 96],
    ['/v1/nodes/test.json/states', 90],
    ['/v1/nodes/test.JSON', 90],
    ['/v1/nodes?name=x.json', 90],
    ['/v1/nodes/testjson', 90],
  ])('%s at 1.%d is routed as it is', (url, minor) => {
    expect(stripJsonSuffix(url, minor)).toBeUndefined();
  });

  it('reads the version from the request headers and remembers which requests it stripped', () => {
    const old = { url: '/v1/nodes/test.json', headers: V('1.90') };
    expect(rewriteJsonSuffix(old)).toBe('/v1/nodes/test');
    expect(hadJsonSuffix(old)).toBe(true);
    const none = { url: '/v1/nodes/test.json', headers: {} };
    expect(rewriteJsonSuffix(none)).toBe('/v1/nodes/test');
    const std = { url: '/v1/nodes/test.json', headers: { 'openstack-api-version': 'baremetal 1.91' } };
    expect(rewriteJsonSuffix(std)).toBe('/v1/nodes/test.json');
    expect(hadJsonSuffix(std)).toBe(false);
    // A version the API refuses anyway (406) leaves the URL alone.
    const bad = { url: '/v1/nodes/test.json', headers: V('1.999') };
    expect(rewriteJsonSuffix(bad)).toBe('/v1/nodes/test.json');
    expect(hadJsonSuffix(bad)).toBe(false);
    expect(rewriteJsonSuffix({ url: '/v1/nodes/test', headers: V('1.1') })).toBe('/v1/nodes/test');
  });
});

/**
 * An app wired as Ironic's middleware is: `rewriteUrl` strips the suffix before routing, the node's own
 * URL looks the node up again with it. Serves the real port routes and a node show route.
 */
describe('.json URLs end to end', () => {
  let app: FastifyInstance;
  let store: Store;
  let dir: string;
  let deps: ApiDeps;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ingot-json-'));
    store = await openStore({ dataDir: dir });
    deps = { store, conductor: overContract(new FakeConductor(store)), config: testApiConfig(), logger: silentLogger() };
    app = Fastify({ rewriteUrl: rewriteJsonSuffix });
    app.decorateRequest('apiMinor', MIN_MINOR);
    app.addHook('onRequest', (req, _reply, done) => {
      req.apiMinor = parseVersion(req.headers);
      done();
    });
    app.setErrorHandler((err, _req, reply) => {
      const e = toApiError(err, 1 << 20);
      void reply.code(e.status).send(errorBody(e.status, e.message));
    });
    app.get<{ Params: { node: string } }>('/v1/nodes/:node', async (req) => {
      const node = await getNode(deps, req.params.node, req.apiMinor, hadJsonSuffix(req.raw));
      return { name: node.name };
    });
    portRoutes(app, deps);
    await app.ready();
    await store.nodes.create({ driver: 'fake-hardware', name: 'jn' });
    await store.nodes.create({ driver: 'fake-hardware', name: 'jn.json' });
    await store.nodes.create({ driver: 'fake-hardware', name: 'only.json' });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const nameOf = async (url: string, v: string) => {
    const res = await app.inject({ url, headers: V(v) });
    return res.statusCode === 200 ? (res.json() as { name: string }).name : res.statusCode;
  };

  it('below 1.91 strips .json and retries the node with it; from 1.91 the name is taken as written', async () => {
    expect(await nameOf('/v1/nodes/jn.json', '1.90')).toBe('jn');
    expect(await nameOf('/v1/nodes/only.json', '1.90')).toBe('only.json');
    expect(await nameOf('/v1/nodes/jn.json.json', '1.90')).toBe('jn.json');
    expect(await nameOf('/v1/nodes/jn.json', '1.91')).toBe('jn.json');
    expect(await nameOf('/v1/nodes/only.json', '1.91')).toBe('only.json');
    expect(await nameOf('/v1/nodes/jn.json.json', '1.91')).toBe(404);
    expect(await nameOf('/v1/nodes/jn', '1.91')).toBe('jn');
  });

  it('routes the port collections and a port with .json below 1.91 only', async () => {
    const node = await store.nodes.get('jn');
    const port = await store.ports.create({ address: '52:54:00:91:00:01', node_id: node.id, name: 'jp' });
    const list = await app.inject({ url: '/v1/ports.json?fields=uuid', headers: V('1.90') });
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { ports: { uuid: string }[] }).ports.map((p) => p.uuid)).toEqual([port.uuid]);
    expect((await app.inject({ url: '/v1/ports/detail.json', headers: V('1.90') })).json().ports[0].name).toBe('jp');
    expect((await app.inject({ url: `/v1/ports/${port.uuid}.json`, headers: V('1.90') })).json().uuid).toBe(port.uuid);
    // Ironic looks ports up without the retry: `jp.json` is the port `jp` below 1.91, nothing from 1.91.
    expect((await app.inject({ url: '/v1/ports/jp.json', headers: V('1.90') })).json().uuid).toBe(port.uuid);
    expect((await app.inject({ url: '/v1/ports.json', headers: V('1.91') })).statusCode).toBe(404);
    expect((await app.inject({ url: `/v1/ports/${port.uuid}.json`, headers: V('1.91') })).statusCode).toBe(404);
    expect((await app.inject({ url: '/v1/ports/jp.json', headers: V('1.91') })).statusCode).toBe(404);
  });
});
