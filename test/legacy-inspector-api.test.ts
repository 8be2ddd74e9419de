/**
 * The legacy ironic-inspector API v1 listener on a real conductor and SQLite store: version discovery,
 * introspection of a fake-hardware node (out of band, finishes at once) and of an in-band (`agent`) node
 * through `POST /v1/continue`, the list, abort, the stored data, and the inspector's error envelope.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { profileInventory } from '../src/agent/hardware/simulated.js';
import { buildInspectorApp } from '../src/api/legacy-inspector/app.js';
import { testApiConfig } from '../src/api/app.test-support.js';
import { simulatedProfile } from '../src/bmc/profiles.js';
import { createNodeIn, startTestConductor, waitForNode, waitForState, type TestConductor } from '../src/conductor/conductor.test-support.js';
import { silentLogger } from '../src/shared/logger.js';
import { overContract } from './support/contract.js';

interface Status {
  uuid: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  finished: boolean;
  state: string;
  links: { href: string; rel: string }[];
}

let t: TestConductor;
let app: FastifyInstance;

beforeEach(async () => {
  t = await startTestConductor();
  app = buildInspectorApp({ store: t.store, conductor: overContract(t.conductor.client), config: testApiConfig(), logger: silentLogger() });
  await app.ready();
});
afterEach(async () => {
  await app?.close();
  await t?.close();
});

const json = <T>(body: string): T => JSON.parse(body) as T;
const message = (body: string): string => json<{ error: { message: string } }>(body).error.message;

/** A manageable fake-hardware node with in-band (`agent`) inspection and a BMC address. */
async function agentNode(name: string, bmc: string): Promise<string> {
  const n = await createNodeIn(t, name, 'manageable', { inspect_interface: 'agent', driver_info: { ipmi_address: bmc } });
  return n.uuid;
}

describe('ironic-inspector API v1 listener', () => {
  it('answers version discovery with the inspector headers, and 406 for a version out of range', async () => {
    const root = await app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.headers['x-openstack-ironic-inspector-api-minimum-version']).toBe('1.0');
    expect(root.headers['x-openstack-ironic-inspector-api-maximum-version']).toBe('1.18');
    const versions = json<{ versions: { id: string; status: string; links: { href: string; rel: string }[] }[] }>(root.body).versions;
    expect(versions).toEqual([{ id: '1.18', status: 'CURRENT', links: [{ href: 'http://localhost:80/v1', rel: 'self' }] }]);

    const v1 = await app.inject({ method: 'GET', url: '/v1', headers: { 'x-openstack-ironic-inspector-api-version': '1.12' } });
    expect(v1.statusCode).toBe(200);
    expect(v1.headers['x-openstack-ironic-inspector-api-version']).toBe('1.12');
    expect(json<{ resources: { name: string }[] }>(v1.body).resources.map((r) => r.name)).toContain('introspection');

    const std = await app.inject({ method: 'GET', url: '/v1', headers: { 'openstack-api-version': 'baremetal-introspection latest' } });
    expect(std.headers['x-openstack-ironic-inspector-api-version']).toBe('1.18');

    const bad = await app.inject({ method: 'GET', url: '/v1/introspection', headers: { 'x-openstack-ironic-inspector-api-version': '1.99' } });
    expect(bad.statusCode).toBe(406);
    expect(message(bad.body)).toMatch(/supported range is 1\.0 to 1\.18/);
  });

  it('starts introspection of a fake-hardware node by name and reports it finished', async () => {
    const node = await createNodeIn(t, 'fake-0', 'manageable');
    const before = await app.inject({ method: 'GET', url: '/v1/introspection/fake-0' });
    expect(before.statusCode).toBe(404);
    expect(message(before.body)).toBe(`Introspection for node ${node.uuid} was not found`);

    const start = await app.inject({ method: 'POST', url: '/v1/introspection/fake-0?manage_boot=true' });
    expect(start.statusCode, start.body).toBe(202);
    expect(start.body).toBe('');
    await waitForState(t.store, node.uuid, 'manageable');

    const res = await app.inject({ method: 'GET', url: `/v1/introspection/${node.uuid}` });
    expect(res.statusCode).toBe(200);
    const status = json<Status>(res.body);
    expect(status).toMatchObject({ uuid: node.uuid, finished: true, state: 'finished', error: null });
    expect(status.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(status.finished_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(status.links).toEqual([{ href: `http://localhost:80/v1/introspection/${node.uuid}`, rel: 'self' }]);

    // Fake inspection stores no data.
    const data = await app.inject({ method: 'GET', url: '/v1/introspection/fake-0/data' });
    expect(data.statusCode).toBe(404);
    expect(message(data.body)).toBe(`Introspection data not found for node ${node.uuid}`);
  });

  it('refuses bad requests in the inspector error format', async () => {
    const missing = await app.inject({ method: 'POST', url: '/v1/introspection/no-such-node' });
    expect(missing.statusCode).toBe(404);
    expect(message(missing.body)).toBe('Node no-such-node was not found');
    await createNodeIn(t, 'enrolled', 'enroll');
    const wrongState = await app.inject({ method: 'POST', url: '/v1/introspection/enrolled' });
    expect(wrongState.statusCode).toBe(400);
    expect(message(wrongState.body)).toMatch(/inspect/);
    const badBool = await app.inject({ method: 'POST', url: '/v1/introspection/enrolled?manage_boot=maybe' });
    expect(badBool.statusCode).toBe(400);
    expect(message(badBool.body)).toMatch(/manage_boot/);
    const method = await app.inject({ method: 'PUT', url: '/v1/continue' });
    expect(method.statusCode).toBe(405);
    expect(method.headers.allow).toBe('POST');
    const unknown = await app.inject({ method: 'GET', url: '/v1/nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(message(unknown.body)).toMatch(/not found/);
    const badData = await app.inject({ method: 'POST', url: '/v1/continue', payload: { inventory: { interfaces: [{ name: 'eth0', mac_address: 'zz' }] } } });
    expect(badData.statusCode).toBe(400);
    expect(message(badData.body)).toMatch(/inventory/);
    const notJson = await app.inject({ method: 'POST', url: '/v1/continue', headers: { 'content-type': 'application/json' }, payload: '{"inventory": ' });
    expect(notJson.statusCode).toBe(400);
    expect(message(notJson.body)).toMatch(/Malformed JSON/);
  });

  it('waits for the ramdisk, takes its data on POST /v1/continue and returns the processed data', async () => {
    const profile = simulatedProfile(1, 'legacy');
    const uuid = await agentNode('agent-0', '10.30.0.2');
    expect((await app.inject({ method: 'POST', url: `/v1/introspection/${uuid}` })).statusCode).toBe(202);
    await waitForState(t.store, uuid, 'inspect wait');
    const waiting = json<Status>((await app.inject({ method: 'GET', url: '/v1/introspection/agent-0' })).body);
    expect(waiting).toMatchObject({ state: 'waiting', finished: false, finished_at: null, error: null });

    const cont = await app.inject({ method: 'POST', url: '/v1/continue', payload: { inventory: profileInventory(profile, { bmcAddress: '10.30.0.2' }) } });
    expect(cont.statusCode, cont.body).toBe(200);
    expect(json(cont.body)).toEqual({ uuid });
    await waitForState(t.store, uuid, 'manageable', 10_000);

    const done = json<Status>((await app.inject({ method: 'GET', url: '/v1/introspection/agent-0' })).body);
    expect(done).toMatchObject({ state: 'finished', finished: true, error: null });
    const data = await app.inject({ method: 'GET', url: '/v1/introspection/agent-0/data' });
    expect(data.statusCode).toBe(200);
    const body = json<Record<string, unknown> & { inventory: { cpu: { count: number }; interfaces: unknown[] } }>(data.body);
    expect(body.inventory.cpu.count).toBe(profile.cpu.count);
    expect(body.inventory.interfaces).toHaveLength(profile.nics.length);
    const stored = await t.store.inventories.get((await t.store.nodes.get(uuid)).id);
    for (const key of Object.keys(stored?.plugin_data ?? {})) expect(body).toHaveProperty([key]);
    expect(Object.keys(body).length).toBe(Object.keys(stored?.plugin_data ?? {}).length + 1);

    const raw = await app.inject({ method: 'GET', url: '/v1/introspection/agent-0/data/unprocessed', headers: { 'x-openstack-ironic-inspector-api-version': '1.17' } });
    expect(raw.statusCode).toBe(404);
    expect(message(raw.body)).toMatch(/Unprocessed introspection data is not kept/);
  });

  it('aborts an introspection waiting for the ramdisk, which then shows as an error', async () => {
    const uuid = await agentNode('agent-abort', '10.30.0.3');
    expect((await app.inject({ method: 'POST', url: '/v1/introspection/agent-abort' })).statusCode).toBe(202);
    await waitForState(t.store, uuid, 'inspect wait');
    const abort = await app.inject({ method: 'POST', url: '/v1/introspection/agent-abort/abort' });
    expect(abort.statusCode, abort.body).toBe(202);
    const n = await waitForNode(t.store, uuid, (x) => x.provision_state === 'inspect failed' && x.reservation === null);
    const status = json<Status>((await app.inject({ method: 'GET', url: '/v1/introspection/agent-abort' })).body);
    expect(status).toMatchObject({ state: 'error', finished: true });
    expect(status.error).toBe(n.last_error);
    expect(status.error).toBeTruthy();

    const again = await app.inject({ method: 'POST', url: '/v1/introspection/agent-abort/abort' });
    expect(again.statusCode).toBe(400);
    expect(message(again.body)).toMatch(/is not being introspected/);
  });

  it('lists introspections newest first, with limit and marker', async () => {
    const uuids: string[] = [];
    for (const name of ['l-0', 'l-1', 'l-2']) {
      const n = await createNodeIn(t, name, 'manageable');
      expect((await app.inject({ method: 'POST', url: `/v1/introspection/${name}` })).statusCode).toBe(202);
      await waitForNode(t.store, n.uuid, (x) => x.provision_state === 'manageable' && x.reservation === null && x.inspection_finished_at !== null);
      uuids.push(n.uuid);
      await new Promise((r) => setTimeout(r, 5)); // distinct inspection start times (millisecond resolution)
    }
    await createNodeIn(t, 'never', 'manageable');
    const all = json<{ introspection: Status[] }>((await app.inject({ method: 'GET', url: '/v1/introspection' })).body).introspection;
    expect(all.map((s) => s.uuid)).toEqual([...uuids].reverse());
    expect(all.every((s) => s.state === 'finished')).toBe(true);
    const first = json<{ introspection: Status[] }>((await app.inject({ method: 'GET', url: '/v1/introspection?limit=1' })).body).introspection;
    expect(first.map((s) => s.uuid)).toEqual([uuids[2]]);
    const next = json<{ introspection: Status[] }>((await app.inject({ method: 'GET', url: `/v1/introspection?limit=1&marker=${uuids[2]}` })).body).introspection;
    expect(next.map((s) => s.uuid)).toEqual([uuids[1]]);
    const bad = await app.inject({ method: 'GET', url: '/v1/introspection?limit=-1' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('ironic-inspector API v1 rules (/v1/rules)', () => {
  const V = { 'x-openstack-ironic-inspector-api-version': '1.18' };
  const rule = {
    description: 'AMD machines',
    conditions: [{ op: 'matches', field: 'inventory.cpu.model_name', value: '.*AMD.*' }],
    actions: [{ action: 'add-trait', name: 'CUSTOM_AMD' }, { action: 'set-capability', name: 'cpu_vendor', value: 'amd' }],
  };
  type Rule = { uuid: string; description: string | null; scope: string | null; conditions?: unknown[]; actions?: unknown[]; links: { href: string; rel: string }[] };

  it('creates (201, or 200 before 1.6), lists, shows and deletes rules in the inspector’s format', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/rules', headers: V, payload: rule });
    expect(created.statusCode).toBe(201);
    const r = json<Rule>(created.body);
    expect(r).toEqual({
      uuid: expect.any(String), description: 'AMD machines', scope: null,
      conditions: [{ op: 'matches', field: 'inventory.cpu.model_name', multiple: 'any', invert: false, value: '.*AMD.*' }],
      actions: rule.actions,
      links: [{ href: `/v1/rules/${r.uuid}`, rel: 'self' }],
    });
    const old = await app.inject({ method: 'POST', url: '/v1/rules', headers: { 'x-openstack-ironic-inspector-api-version': '1.5' }, payload: { ...rule, scope: 'rack1' } });
    expect(old.statusCode).toBe(200);
    const list = json<{ rules: Rule[] }>((await app.inject({ method: 'GET', url: '/v1/rules', headers: V })).body).rules;
    expect(list.map((x) => [x.description, x.scope])).toEqual([['AMD machines', null], ['AMD machines', 'rack1']]);
    expect(list[0]).not.toHaveProperty('conditions');
    const shown = json<Rule>((await app.inject({ method: 'GET', url: `/v1/rules/${r.uuid}`, headers: V })).body);
    expect(shown.actions).toEqual(rule.actions);

    expect((await app.inject({ method: 'DELETE', url: `/v1/rules/${r.uuid}`, headers: V })).statusCode).toBe(204);
    const gone = await app.inject({ method: 'GET', url: `/v1/rules/${r.uuid}`, headers: V });
    expect(gone.statusCode).toBe(404);
    expect(message(gone.body)).toBe(`Rule ${r.uuid} was not found`);
    expect((await app.inject({ method: 'DELETE', url: '/v1/rules', headers: V })).statusCode).toBe(204);
    expect(json<{ rules: Rule[] }>((await app.inject({ method: 'GET', url: '/v1/rules', headers: V })).body).rules).toEqual([]);
  });

  it('refuses bad rules with the inspector’s error envelope and stores nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{ conditions: [], actions: [] }, /actions/],
      [{ actions: [{ action: 'reboot' }] }, /unknown action "reboot"/],
      [{ conditions: [{ op: 'matches', field: 'x', value: '(' }], actions: [{ action: 'fail', message: 'm' }] }, /invalid regular expression/],
      [{ conditions: [{ op: 'eq', field: 'x' }], actions: [{ action: 'fail', message: 'm' }] }, /missing required parameter/],
      [{ uuid: 'nope', actions: [{ action: 'fail', message: 'm' }] }, /Invalid UUID value/],
    ];
    for (const [payload, expected] of cases) {
      const res = await app.inject({ method: 'POST', url: '/v1/rules', headers: V, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(message(res.body)).toMatch(expected);
    }
    const dup = json<Rule>((await app.inject({ method: 'POST', url: '/v1/rules', headers: V, payload: rule })).body);
    const again = await app.inject({ method: 'POST', url: '/v1/rules', headers: V, payload: { ...rule, uuid: dup.uuid } });
    expect(again.statusCode).toBe(409);
    expect(json<{ rules: Rule[] }>((await app.inject({ method: 'GET', url: '/v1/rules', headers: V })).body).rules).toHaveLength(1);
  });
});

describe('the ramdisk callback POST /v1/continue, public as in ironic-inspector', () => {
  it('bounds its body (413) and the requests of one address (429), in the inspector’s envelope, before the conductor sees them', async () => {
    const small = buildInspectorApp({
      store: t.store, conductor: overContract(t.conductor.client), logger: silentLogger(),
      config: testApiConfig({ max_inspection_body_bytes: 2048, agent_rate_limit_per_minute: 2 }),
    });
    await small.ready();
    try {
      const post = (payload: object, remoteAddress = '192.0.2.30') => small.inject({ method: 'POST', url: '/v1/continue', payload, remoteAddress });
      const big = await post({ inventory: { padding: 'x'.repeat(4000) } });
      expect(big.statusCode).toBe(413);
      expect(message(big.body)).toBe('Request body is too large (limit 2048 bytes).');
      expect((await post({ inventory: { interfaces: [] } })).statusCode).not.toBe(429);
      const refused = await post({ inventory: { interfaces: [] } });
      expect(refused.statusCode).toBe(429);
      expect(message(refused.body)).toMatch(/^Too many requests from 192\.0\.2\.30 to the agent endpoints \(at most 2 a minute\)/);
      expect((await post({ inventory: { interfaces: [] } }, '192.0.2.31')).statusCode).not.toBe(429);
      expect(await t.store.nodes.list({}, { limit: 10 })).toEqual([]);
    } finally {
      await small.close();
    }
  });
});
