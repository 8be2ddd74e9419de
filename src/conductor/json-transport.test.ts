/** The conductor contract over the loopback JSON transport, against the real LocalConductorClient. */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IngotError } from '../shared/errors.js';
import { runInRequestContext, type RequestContext } from '../shared/request-context.js';
import type { ConductorClient } from './client.js';
import { CONDUCTOR_METHODS, jsonConductorClient, loopbackConductorClient, serveConductorCall, type ConductorRequest } from './json-transport.js';
import { LocalConductorClient } from './local-client.js';
import { startTestConductor, waitForState, type TestConductor } from './conductor.test-support.js';

let t: TestConductor;
let c: ConductorClient;
beforeEach(async () => {
  t = await startTestConductor();
  c = loopbackConductorClient(t.conductor.client);
});
afterEach(async () => t?.close());

/** The answer text `target` gives to a request text. */
const answer = async (target: ConductorClient, request: unknown) => JSON.parse(await serveConductorCall(target, JSON.stringify(request)));
const request = (method: string, params: object, id = 1) => ({ jsonrpc: '2.0', id, method, params });

describe('the loopback JSON transport', () => {
  it('carries every method of the contract (the compiler checks the table covers them all)', () => {
    expect(CONDUCTOR_METHODS).toContain('conductorsFor');
    for (const m of CONDUCTOR_METHODS) {
      expect(typeof LocalConductorClient.prototype[m], m).toBe('function');
      expect(typeof c[m], m).toBe('function');
    }
  });

  it('hands records over as they are, and an action through to the worker', async () => {
    const node = await c.createNode({ driver: 'fake-hardware', name: 'j1', extra: { tags: ['a', null, 1.5], nested: { ok: true } } });
    expect(node).toEqual(await t.store.nodes.get('j1'));
    expect(await c.updateNode('j1', { description: 'over json', extra: {} })).toMatchObject({ description: 'over json', extra: {}, reservation: null });
    await c.doProvisionAction('j1', 'manage', {});
    await waitForState(t.store, 'j1', 'manageable');
    expect(await c.conductorsFor([node, { ...node, conductor_group: 'elsewhere' }])).toEqual(['test-conductor', null]);
    expect(await c.validate('j1')).toEqual(await t.conductor.client.validate('j1'));
    // A call that answers nothing answers undefined, as in process.
    expect(await c.setMaintenance('j1', true)).toBeUndefined();
    expect(await t.store.nodes.get('j1')).toMatchObject({ maintenance: true, maintenance_reason: null });
  });

  it('rebuilds an IngotError with its code, status and message', async () => {
    const direct = await t.conductor.client.getDriver('idrac').catch((e: unknown) => e);
    const carried = await c.getDriver('idrac').catch((e: unknown) => e);
    expect(carried).toBeInstanceOf(IngotError);
    expect(carried).toMatchObject({ code: 'DriverNotFound', status: 404, message: (direct as Error).message });
    await c.createNode({ driver: 'fake-hardware', name: 'j2' });
    await expect(c.doProvisionAction('j2', 'deploy', {})).rejects.toMatchObject({ code: 'InvalidStateRequested', status: 400 });
  });

  it('answers an error that is not an IngotError as Internal, and logs it where it happened', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } }));
    const broken = { listDrivers: async () => { throw new TypeError('x is not a function'); } } as unknown as ConductorClient;
    const client = loopbackConductorClient(broken, logger);
    await expect(client.listDrivers()).rejects.toMatchObject({ code: 'Internal', status: 500, message: 'Internal server error; see the server log.' });
    expect(lines.join('')).toContain('x is not a function');
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  it.each([
    ['a cycle', { driver: 'fake-hardware', extra: cyclic }, 'values.extra.self contains itself'],
    ['a Date', { driver: 'fake-hardware', name: 'd', provision_updated_at: new Date(0) }, 'values.provision_updated_at is a Date'],
    ['undefined inside', { driver: 'fake-hardware', name: undefined }, 'values.name is undefined'],
    ['a Map', { driver: 'fake-hardware', extra: new Map() }, 'values.extra is a Map'],
    ['NaN', { driver: 'fake-hardware', extra: { n: Number.NaN } }, 'values.extra.n is NaN'],
    ['undefined in a list', { driver: 'fake-hardware', traits: [undefined, 'CUSTOM_A'] }, 'values.traits[0] is undefined'],
    ['a function', { driver: 'fake-hardware', extra: { f: () => 1 } }, 'values.extra.f is a function'],
  ])('refuses an argument with %s before the conductor sees it', async (_what, values, problem) => {
    await expect(c.createNode(values as never)).rejects.toMatchObject({ code: 'Internal', message: expect.stringContaining(problem) });
    expect(await t.store.nodes.list({}, { limit: 10 })).toEqual([]);
  });

  it('takes an argument with a null prototype as plain data', async () => {
    const extra = Object.assign(Object.create(null) as Record<string, unknown>, { k: 'v' });
    expect((await c.createNode({ driver: 'fake-hardware', name: 'np', extra: extra as never })).extra).toEqual({ k: 'v' });
  });

  it('refuses an answer that would not survive JSON', async () => {
    const odd = { getConsole: async () => ({ console_enabled: true, console_info: { type: 'socat', url: new URL('tcp://h:1') } }) } as unknown as ConductorClient;
    await expect(loopbackConductorClient(odd).getConsole('n')).rejects.toMatchObject({ code: 'Internal', message: expect.stringContaining('the answer.console_info.url is a URL') });
  });

  it('sends optional arguments left out as absent params, and names the params', async () => {
    const sent: ConductorRequest[] = [];
    const client = jsonConductorClient(async (text) => {
      sent.push(JSON.parse(text) as ConductorRequest);
      return serveConductorCall(t.conductor.client, text);
    });
    await client.createNode({ driver: 'fake-hardware', name: 'p1' });
    await client.setPowerState('p1', 'power on', undefined);
    await client.detachVirtualMedia('p1').catch(() => undefined);
    expect(sent.map((r) => [r.method, r.params])).toEqual([
      ['createNode', { values: { driver: 'fake-hardware', name: 'p1' } }],
      ['setPowerState', { ident: 'p1', target: 'power on' }],
      ['detachVirtualMedia', { ident: 'p1' }],
    ]);
    expect(new Set(sent.map((r) => r.id)).size).toBe(3);
  });

  it('answers a request it cannot run with a JSON-RPC error, never by throwing', async () => {
    const target = t.conductor.client;
    expect(JSON.parse(await serveConductorCall(target, '{not json'))).toMatchObject({ id: null, error: { code: -32700, data: { class: 'Internal' } } });
    expect(await answer(target, { id: 1, method: 'listDrivers', params: {} })).toMatchObject({ error: { code: -32600 } });
    expect(await answer(target, request('toString', {}))).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(await answer(target, request('__proto__', {}))).toMatchObject({ error: { code: -32601 } });
    expect(await answer(target, request('getDriver', { name: 'fake-hardware', extra: 1 }))).toMatchObject({ error: { code: -32602, message: expect.stringContaining('extra') } });
    expect(await answer(target, request('getDriver', { name: 'idrac' }, 7))).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: 404, data: { class: 'DriverNotFound' } } });
    expect(await answer(target, request('getDriver', { name: 'fake-hardware' }, 8))).toMatchObject({ jsonrpc: '2.0', id: 8, result: { name: 'fake-hardware' } });
  });

  it('rebuilds an error of an unknown class as Internal', async () => {
    const client = jsonConductorClient(async () => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 418, message: 'teapot', data: { class: 'Teapot' } } }));
    await expect(client.listDrivers()).rejects.toMatchObject({ code: 'Internal', message: 'teapot' });
  });
});

describe('the request context over the JSON transport', () => {
  const alice: RequestContext = { request_id: 'req-1', user: 'alice', roles: ['admin'], is_admin: true, system_scope: 'all' };

  it('travels as the context member of the call, and the conductor records its user in the history of the work it started', async () => {
    const sent: ConductorRequest[] = [];
    const client = jsonConductorClient(async (text) => {
      sent.push(JSON.parse(text) as ConductorRequest);
      // The answering side runs outside the caller's context: only what crossed as JSON reaches it.
      return runInRequestContext(undefined, () => serveConductorCall(t.conductor.client, text));
    });
    const node = await runInRequestContext(alice, () => client.createNode({ driver: 'fake-hardware', name: 'ctx1' }));
    await runInRequestContext(alice, () => client.doProvisionAction('ctx1', 'manage', {}));
    await waitForState(t.store, 'ctx1', 'manageable');
    await client.doProvisionAction('ctx1', 'provide', {});
    await waitForState(t.store, 'ctx1', 'available');
    expect(sent.map((r) => r.context)).toEqual([alice, alice, undefined]);
    const events = await t.store.history.list(node.id, { limit: 10 });
    expect(events.map((e) => [e.event, e.user])).toEqual([
      ['enroll -> verifying (manage)', 'alice'],
      ['verifying -> manageable (done)', 'alice'],
      ['manageable -> cleaning (provide)', null],
      ['cleaning -> available (done)', null],
    ]);
  });

  it('refuses a context that is not one', async () => {
    for (const context of ['alice', { request_id: 'r', roles: [], is_admin: 'yes' }, { request_id: 'r', roles: [], is_admin: true, extra: 1 }, { request_id: 'r', user: 7, roles: [], is_admin: true }]) {
      const a = await answer(t.conductor.client, { ...request('listDrivers', {}), context });
      expect(a.error, JSON.stringify(context)).toMatchObject({ code: -32600, data: { class: 'Internal' } });
    }
  });
});
