/**
 * The agent protocol on the API with a real conductor and SQLite store: lookup by MAC or node UUID with
 * the agent token handed out once, heartbeats that must carry it, and what the API never shows.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/api/app.js';
import { faultString, testApiConfig } from '../src/api/app.test-support.js';
import { createNodeIn, startTestConductor, waitForState, type TestConductor } from '../src/conductor/conductor.test-support.js';
import { silentLogger } from '../src/shared/logger.js';
import { overContract } from './support/contract.js';

const V = { 'x-openstack-ironic-api-version': '1.72' };
const MAC = '52:54:00:aa:00:01';
const OTHER_MAC = '52:54:00:aa:00:02';

let t: TestConductor;
let app: FastifyInstance;
let uuid: string;

beforeEach(async () => {
  t = await startTestConductor();
  app = buildApp({ store: t.store, conductor: overContract(t.conductor.client), config: testApiConfig(), logger: silentLogger() });
  await app.ready();
  const node = await createNodeIn(t, 'agent-0', 'manageable', { inspect_interface: 'agent' });
  await t.conductor.client.createPort({ node_id: node.id, address: MAC, pxe_enabled: true });
  await t.conductor.client.doProvisionAction(node.uuid, 'inspect', {});
  await waitForState(t.store, node.uuid, 'inspect wait');
  uuid = node.uuid;
});
afterEach(async () => {
  await app?.close();
  await t?.close();
});

type Lookup = { node: { uuid: string; driver_internal_info: Record<string, unknown> }; config: { agent_token: string; agent_token_required: boolean; heartbeat_timeout: number } };
const lookup = (query: string, headers = V) => app.inject({ url: `/v1/lookup?${query}`, headers });
const heartbeat = (node: string, payload: object, headers = V) => app.inject({ method: 'POST', url: `/v1/heartbeat/${node}`, headers, payload });

describe('lookup', () => {
  it('finds the node by MAC (any case, non-MACs skipped) and hands the token out once', async () => {
    const first = await lookup(`addresses=${MAC.toUpperCase()},not-a-mac`);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json<Lookup>();
    expect(body.node.uuid).toBe(uuid);
    expect(body.config).toMatchObject({ agent_token_required: true, heartbeat_timeout: 300 });
    expect(body.config.agent_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.node.driver_internal_info).not.toHaveProperty('agent_secret_token');

    const again = (await lookup(`addresses=${MAC}&node_uuid=${uuid}`)).json<Lookup>();
    expect(again.config.agent_token).toBe('******');
    const shown = (await app.inject({ url: `/v1/nodes/${uuid}`, headers: { 'x-openstack-ironic-api-version': 'latest' } })).json<{ driver_internal_info: Record<string, unknown> }>();
    expect(shown.driver_internal_info.agent_secret_token).toBe('******');
    const stored = await t.store.nodes.get(uuid);
    expect(stored.driver_internal_info.agent_secret_token).toBe(body.config.agent_token);
  });

  it('refuses what it cannot serve: unknown MACs, nodes no agent serves, bad input, old versions', async () => {
    expect((await lookup('addresses=52:54:00:ff:ff:ff')).statusCode).toBe(404);
    const other = await createNodeIn(t, 'idle', 'manageable');
    await t.conductor.client.createPort({ node_id: other.id, address: OTHER_MAC, pxe_enabled: true });
    const idle = await lookup(`addresses=${OTHER_MAC}`);
    expect(idle.statusCode).toBe(404);
    // The same answer as for an unknown machine: nothing is told about a node no agent serves.
    expect(faultString(idle.body)).toBe(`Node with addresses ${OTHER_MAC} could not be found.`);
    const noMac = await lookup('addresses=zz');
    expect(noMac.statusCode).toBe(400);
    expect(faultString(noMac.body)).toBe("At least one of 'addresses' and 'node_uuid' parameters is required");
    expect((await lookup('node_uuid=agent-0')).statusCode).toBe(400);
    expect((await lookup(`addresses=${MAC}`, { 'x-openstack-ironic-api-version': '1.21' })).statusCode).toBe(404);
    expect((await t.store.nodes.get(uuid)).driver_internal_info).not.toHaveProperty('agent_secret_token');
  });

  it('with fast track, also serves nodes in enroll, manageable and available (an agent kept running between phases)', async () => {
    const other = await createNodeIn(t, 'kept', 'available');
    await t.conductor.client.createPort({ node_id: other.id, address: OTHER_MAC, pxe_enabled: true });
    const patch = (value: unknown) => app.inject({
      method: 'PATCH', url: `/v1/nodes/${other.uuid}`, headers: V, payload: [{ op: 'add', path: '/driver_info/fast_track', value }],
    });
    expect((await lookup(`addresses=${OTHER_MAC}&node_uuid=${other.uuid}`)).statusCode).toBe(404);
    // A value that is no boolean counts as off here (the direct deploy interface's validate names it).
    expect((await patch('sometimes')).statusCode).toBe(200);
    expect((await lookup(`addresses=${OTHER_MAC}&node_uuid=${other.uuid}`)).statusCode).toBe(404);
    expect((await patch('true')).statusCode).toBe(200);
    const found = await lookup(`addresses=${OTHER_MAC}&node_uuid=${other.uuid}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json<Lookup>().config.agent_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The conductor's default: off here; the node's true wins. Its false wins over a conductor's true too (see fast-track.test.ts).
    expect((await patch(false)).statusCode).toBe(200);
    expect((await lookup(`addresses=${OTHER_MAC}&node_uuid=${other.uuid}`)).statusCode).toBe(404);
  });
});

describe('hijack and lock flooding', () => {
  it('the node UUID alone finds no node, nor does it with the MACs of another machine; the token stays unhanded', async () => {
    const alone = await lookup(`node_uuid=${uuid}`);
    expect(alone.statusCode).toBe(400);
    expect(faultString(alone.body)).toMatch(/valid MAC address is required in 'addresses': 'node_uuid' alone does not identify/);
    const other = await createNodeIn(t, 'other', 'manageable', { inspect_interface: 'agent' });
    await t.conductor.client.createPort({ node_id: other.id, address: OTHER_MAC, pxe_enabled: true });
    await t.conductor.client.doProvisionAction(other.uuid, 'inspect', {});
    await waitForState(t.store, other.uuid, 'inspect wait');
    const crossed = await lookup(`addresses=${OTHER_MAC}&node_uuid=${uuid}`);
    expect(crossed.statusCode).toBe(404);
    expect((await lookup(`addresses=52:54:00:ff:ff:ff&node_uuid=${uuid}`)).statusCode).toBe(404);
    expect((await t.store.nodes.get(uuid)).driver_internal_info).not.toHaveProperty('agent_secret_token');
    // The real agent, with its own MACs, still gets the token.
    const real = await lookup(`addresses=${MAC}&node_uuid=${uuid}`);
    expect(real.json<Lookup>().config.agent_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('checks the token before the lock: a locked node refuses a wrong token at once, and answers a later lookup', async () => {
    const token = (await lookup(`addresses=${MAC}`)).json<Lookup>().config.agent_token;
    await t.store.nodes.reserve(uuid, 'another-conductor');
    const forged = await heartbeat(uuid, { callback_url: 'http://10.0.0.9:9999', agent_token: 'z'.repeat(43) });
    expect(forged.statusCode, forged.body).toBe(400);
    expect(faultString(forged.body)).toMatch(/Invalid or missing agent token/);
    const again = await lookup(`addresses=${MAC}`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<Lookup>().config.agent_token).toBe('******');
    // The real agent's heartbeat waits for the lock (409 while it is held), never taken by the others.
    expect((await heartbeat(uuid, { callback_url: 'http://10.0.0.5:9999', agent_token: token })).statusCode).toBe(409);
    const held = await t.store.nodes.get(uuid);
    expect(held.reservation).toBe('another-conductor');
    expect(held.driver_internal_info).not.toHaveProperty('agent_url');
    await t.store.nodes.release(uuid, 'another-conductor');
    expect((await heartbeat(uuid, { callback_url: 'http://10.0.0.5:9999', agent_token: token })).statusCode).toBe(202);
  });

  it('takes and ignores a heartbeat with the right token for a node no agent serves now', async () => {
    const token = (await lookup(`addresses=${MAC}`)).json<Lookup>().config.agent_token;
    const other = await createNodeIn(t, 'done', 'active');
    await t.store.nodes.update(other.uuid, { driver_internal_info: { agent_secret_token: token } });
    const res = await heartbeat(other.uuid, { callback_url: 'http://10.0.0.7:9999', agent_token: token });
    expect(res.statusCode).toBe(202);
    expect((await t.store.nodes.get(other.uuid)).driver_internal_info).not.toHaveProperty('agent_url');
    // In a hold the agent waits too: its heartbeat is taken (Ironic's HEARTBEAT_ALLOWED).
    const held = await createNodeIn(t, 'held', 'active');
    await t.store.nodes.update(held.uuid, { provision_state: 'deploy hold', driver_internal_info: { agent_secret_token: token } });
    expect((await heartbeat(held.uuid, { callback_url: 'http://10.0.0.8:9999', agent_token: token })).statusCode).toBe(202);
    expect((await t.store.nodes.get(held.uuid)).driver_internal_info.agent_url).toBe('http://10.0.0.8:9999');
  });
});

describe('heartbeat', () => {
  it('takes heartbeats with the token and records the agent; refuses missing or wrong tokens and a moved agent', async () => {
    const token = (await lookup(`addresses=${MAC}`)).json<Lookup>().config.agent_token;
    const ok = await heartbeat(uuid, { callback_url: 'http://10.0.0.5:9999', agent_token: token, agent_version: '10.0.0' });
    expect(ok.statusCode, ok.body).toBe(202);
    const node = await t.store.nodes.get(uuid);
    expect(node.driver_internal_info).toMatchObject({ agent_url: 'http://10.0.0.5:9999', agent_version: '10.0.0' });
    expect(typeof node.driver_internal_info.agent_last_heartbeat).toBe('string');

    const cases: [object, RegExp][] = [
      [{ callback_url: 'http://10.0.0.5:9999' }, /Agent token is required/],
      [{ callback_url: 'http://10.0.0.5:9999', agent_token: 'x'.repeat(43) }, /Invalid or missing agent token/],
      [{ callback_url: 'http://10.0.0.6:9999', agent_token: token }, /change in ramdisk provided "callback_url"/],
      [{ callback_url: 'ftp://10.0.0.5', agent_token: token }, /callback_url/],
      [{ callback_url: 'http://10.0.0.5:9999', agent_token: token, agent_status: 'sleeping' }, /Agent status is invalid/],
      [{ callback_url: 'http://10.0.0.5:9999', agent_token: token, favourite: 1 }, /Field "favourite" not recognised/],
      [{ agent_token: token }, /^Invalid input for heartbeat: 'callback_url' is a required property\.$/],
      [{ callback_url: 'http://10.0.0.5:9999', agent_token: token, agent_version: 10 }, /^Invalid input for field\/attribute agent_version\. Value: 10\. Expected string or null, got integer\.$/],
    ];
    for (const [payload, message] of cases) {
      const res = await heartbeat(uuid, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(faultString(res.body)).toMatch(message);
    }
    const old = await heartbeat(uuid, { callback_url: 'http://10.0.0.5:9999', agent_token: token }, { 'x-openstack-ironic-api-version': '1.61' });
    expect(faultString(old.body)).toMatch(/Field "agent_token" not recognised in this version/);
    for (const payload of ['[]', '"beat"']) {
      const res = await app.inject({ method: 'POST', url: `/v1/heartbeat/${uuid}`, headers: { ...V, 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(400);
      expect(faultString(res.body)).toMatch(/^Invalid input for heartbeat: expected a JSON object/);
    }
    expect((await heartbeat('no-such-node', { callback_url: 'http://10.0.0.5:9999', agent_token: token })).statusCode).toBe(404);
    expect((await t.store.nodes.get(uuid)).driver_internal_info.agent_url).toBe('http://10.0.0.5:9999');
  });

  it('refuses a heartbeat for a node that never handed out a token', async () => {
    const res = await heartbeat(uuid, { callback_url: 'http://10.0.0.5:9999', agent_token: 'y'.repeat(43) });
    expect(res.statusCode).toBe(400);
    expect(faultString(res.body)).toMatch(/Invalid or missing agent token/);
  });
});

describe('token lifetime', () => {
  it('a new inspection forgets the token and the agent URL: the next ramdisk looks up afresh', async () => {
    const token = (await lookup(`addresses=${MAC}`)).json<Lookup>().config.agent_token;
    expect((await heartbeat(uuid, { callback_url: 'http://10.0.0.5:9999', agent_token: token })).statusCode).toBe(202);
    await t.conductor.client.doProvisionAction(uuid, 'abort', {});
    await waitForState(t.store, uuid, 'inspect failed');
    // The abort forgot the agent at once: its token opens nothing any more.
    const aborted = (await t.store.nodes.get(uuid)).driver_internal_info;
    expect(aborted).not.toHaveProperty('agent_secret_token');
    expect(aborted).not.toHaveProperty('agent_url');
    await t.conductor.client.doProvisionAction(uuid, 'inspect', {});
    await waitForState(t.store, uuid, 'inspect wait');
    const dii = (await t.store.nodes.get(uuid)).driver_internal_info;
    expect(dii).not.toHaveProperty('agent_secret_token');
    expect(dii).not.toHaveProperty('agent_url');
    const fresh = (await lookup(`addresses=${MAC}`)).json<Lookup>().config.agent_token;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(token);
  });
});
