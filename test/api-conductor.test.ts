/**
 * The API and the real conductor together, on a real SQLite store: races for the node lock, the worker
 * pool limit and failure handling, seen as an API client sees them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/api/app.js';
import { startTestConductor, waitForState, type TestConductor } from '../src/conductor/conductor.test-support.js';
import { silentLogger } from '../src/shared/logger.js';
import { overContract } from './support/contract.js';
import { faultString, testApiConfig } from '../src/api/app.test-support.js';

const V = { 'x-openstack-ironic-api-version': '1.87' };
const EXPECTED_CHANGES = [
  'enroll -> verifying (manage)', 'verifying -> manageable (done)', 'manageable -> cleaning (provide)',
  'cleaning -> available (done)', 'available -> deploying (deploy)', 'deploying -> active (done)',
];

describe('API + conductor', () => {
  let t: TestConductor;
  let app: FastifyInstance;

  async function start(config: Parameters<typeof startTestConductor>[0] = {}) {
    t = await startTestConductor(config);
    app = buildApp({ store: t.store, conductor: overContract(t.conductor.client), config: testApiConfig(), logger: silentLogger() });
    await app.ready();
  }

  async function createNode(name: string, driverInfo: Record<string, unknown> = {}): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/v1/nodes', headers: V, payload: { name, driver: 'fake-hardware', driver_info: driverInfo } });
    expect(res.statusCode, res.body).toBe(201);
    return (JSON.parse(res.body) as { uuid: string }).uuid;
  }

  const provision = (node: string, target: string) =>
    app.inject({ method: 'PUT', url: `/v1/nodes/${node}/states/provision`, headers: V, payload: { target } });

  afterEach(async () => {
    await app?.close();
    await t?.close();
  });

  it('lets exactly one of two concurrent actions on a node win; the other gets 409 NodeLocked', async () => {
    await start();
    const uuid = await createNode('race-1', { fake_deploy_delay: 1 });
    expect((await provision(uuid, 'manage')).statusCode).toBe(202);
    await waitForState(t.store, uuid, 'manageable');
    expect((await provision(uuid, 'provide')).statusCode).toBe(202);
    await waitForState(t.store, uuid, 'available');

    const [a, b] = await Promise.all([provision(uuid, 'deploy'), provision(uuid, 'deploy')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(faultString(loser.body)).toMatch(new RegExp(`Node ${uuid} is locked by host test-conductor`));

    // While the deploy runs (its fake delay holds the lock), every other change is refused the same way.
    const patch = await app.inject({ method: 'PATCH', url: `/v1/nodes/${uuid}`, headers: V, payload: [{ op: 'add', path: '/extra/x', value: 1 }] });
    expect(patch.statusCode).toBe(409);
    const node = await t.store.nodes.get(uuid);
    expect(node.provision_state).toBe('deploying');
    expect(node.extra).toEqual({});
    await waitForState(t.store, uuid, 'active', 10_000);
  });

  it('answers 503 when the worker pool is full and changes nothing', async () => {
    await start({ workers: 1 });
    const slow = await createNode('slow', { fake_deploy_delay: 2 });
    const other = await createNode('other');
    for (const n of [slow, other]) {
      await provision(n, 'manage');
      await waitForState(t.store, n, 'manageable');
      await provision(n, 'provide');
      await waitForState(t.store, n, 'available');
    }
    expect((await provision(slow, 'deploy')).statusCode).toBe(202);
    const refused = await provision(other, 'deploy');
    expect(refused.statusCode).toBe(503);
    expect(faultString(refused.body)).toMatch(/lack of free conductor workers/);
    const after = await t.store.nodes.get(other);
    expect(after.provision_state).toBe('available');
    expect(after.reservation).toBeNull();
    await waitForState(t.store, slow, 'active', 10_000);
  });

  it('refuses an invalid transition with 400 and Ironic’s message, leaving the node as it was', async () => {
    await start();
    const uuid = await createNode('enrolled');
    const res = await provision(uuid, 'deploy');
    expect(res.statusCode).toBe(400);
    expect(faultString(res.body)).toBe(`The requested action "deploy" can not be performed on node "${uuid}" while it is in state "enroll".`);
    expect((await t.store.nodes.get(uuid)).provision_state).toBe('enroll');
  });

  it('leaves the node’s state to the conductor: disable_power_off refuses a power-off with 409 at any version', async () => {
    await start();
    const uuid = await createNode('dpo');
    await t.store.nodes.update(uuid, { disable_power_off: true, power_state: 'power on' });
    const power = (target: string, v: string) =>
      app.inject({ method: 'PUT', url: `/v1/nodes/${uuid}/states/power`, headers: { 'x-openstack-ironic-api-version': v }, payload: { target } });
    for (const [target, v] of [['power off', '1.1'], ['power off', '1.95'], ['soft power off', '1.95']] as const) {
      const res = await power(target, v);
      expect(res.statusCode, `${target} at ${v}`).toBe(409);
      expect(faultString(res.body)).toBe(
        `Failed to set node power state to ${target}: node ${uuid} has disable_power_off set, so Ingot never powers it off. ` +
          'Use "rebooting" to restart it, or set disable_power_off to false (API 1.95) to allow powering it off.',
      );
    }
    expect(await t.store.nodes.get(uuid)).toMatchObject({ power_state: 'power on', target_power_state: null, last_error: null, reservation: null });
    expect((await power('rebooting', '1.95')).statusCode).toBe(202);
  });

  it('refuses a deployment of a node in maintenance before looking at its state, other verbs after, in Ironic’s words', async () => {
    await start();
    const uuid = await createNode('in-maintenance');
    expect((await app.inject({ method: 'PUT', url: `/v1/nodes/${uuid}/maintenance`, headers: V, payload: { reason: 'cabling' } })).statusCode).toBe(202);
    for (const verb of ['active', 'deploy', 'rebuild']) {
      const res = await provision(uuid, verb);
      expect(res.statusCode, verb).toBe(400);
      expect(faultString(res.body)).toBe(`The provisioning operation can't be performed on node ${uuid} because it's in maintenance mode.`);
    }
    const provide = await provision(uuid, 'provide');
    expect(faultString(provide.body)).toBe(`The requested action "provide" can not be performed on node "${uuid}" while it is in state "enroll".`);
    expect((await provision(uuid, 'manage')).statusCode).toBe(202);
    await waitForState(t.store, uuid, 'manageable');
    const clean = await app.inject({
      method: 'PUT', url: `/v1/nodes/${uuid}/states/provision`, headers: V, payload: { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices' }] },
    });
    expect(clean.statusCode).toBe(400);
    expect(faultString(clean.body)).toBe(`The cleaning operation can't be performed on node ${uuid} because it's in maintenance mode.`);
    expect(await t.store.nodes.get(uuid)).toMatchObject({ provision_state: 'manageable', maintenance: true, reservation: null });
  });

  it('checks the step lists before the conductor sees them, as Ironic’s jsonschema words it', async () => {
    await start();
    const uuid = await createNode('steps');
    expect((await provision(uuid, 'manage')).statusCode).toBe(202);
    await waitForState(t.store, uuid, 'manageable');
    const clean = (clean_steps: unknown) =>
      app.inject({ method: 'PUT', url: `/v1/nodes/${uuid}/states/provision`, headers: V, payload: { target: 'clean', clean_steps } });
    const cases: Array<[unknown, string]> = [
      [[], '"clean_steps" is required when setting target provision state to clean'],
      [[{ interface: 'boot', step: 'x' }], "Invalid clean_steps: 'boot' is not one of ['vendor', 'power', 'management', 'firmware', 'deploy', 'bios', 'raid']\n\n" +
        "Failed validating 'enum' in schema['items']['properties']['interface']\n\nOn instance[0]['interface']:\n    'boot'"],
      [[{ interface: 'deploy', step: 'erase_devices', priority: 10 }], "Invalid clean_steps: Additional properties are not allowed ('priority' was unexpected)\n\n" +
        "Failed validating 'additionalProperties' in schema['items']\n\nOn instance[0]:\n    {'interface': 'deploy', 'step': 'erase_devices', 'priority': 10}"],
    ];
    for (const [steps, message] of cases) {
      const res = await clean(steps);
      expect(res.statusCode, JSON.stringify(steps)).toBe(400);
      expect(faultString(res.body)).toBe(message);
    }
    // A step the schema accepts but the node's driver does not offer is the conductor's to refuse.
    const unknown = await clean([{ interface: 'raid', step: 'bogus' }]);
    expect(unknown.statusCode).toBe(400);
    expect(faultString(unknown.body)).toContain('raid.bogus');
    expect(await t.store.nodes.get(uuid)).toMatchObject({ provision_state: 'manageable', reservation: null });
  });

  it('records every state change in the history with the time each phase took', async () => {
    await start();
    const uuid = await createNode('timed');
    for (const [verb, state] of [['manage', 'manageable'], ['provide', 'available'], ['deploy', 'active']] as const) {
      expect((await provision(uuid, verb)).statusCode).toBe(202);
      await waitForState(t.store, uuid, state, 10_000);
    }
    const res = await app.inject({ method: 'GET', url: `/v1/nodes/${uuid}/history?detail=True`, headers: V });
    expect(res.statusCode).toBe(200);
    const events = (JSON.parse(res.body) as { history: { event: string; event_type: string; duration: number | null }[] }).history;
    // Each change of state, in order, with the seconds spent in the state it left (how those are
    // counted is src/conductor/task.test.ts's, on a virtual clock).
    const changes = events.filter((e) => e.event_type === 'provisioning');
    expect(changes.map((e) => e.event)).toEqual(EXPECTED_CHANGES);
    for (const e of changes) expect(e.duration, e.event).toEqual(expect.any(Number));
  });

  it('a fake-hardware node reads power on once deployed (Ironic 21.4 keeps null until a power action: docs/compat.md)', async () => {
    await start();
    const uuid = await createNode('powered');
    for (const [verb, state] of [['manage', 'manageable'], ['provide', 'available'], ['deploy', 'active']] as const) {
      expect((await provision(uuid, verb)).statusCode).toBe(202);
      await waitForState(t.store, uuid, state, 10_000);
    }
    const res = await app.inject({ method: 'GET', url: `/v1/nodes/${uuid}`, headers: V });
    expect(JSON.parse(res.body)).toMatchObject({ provision_state: 'active', power_state: 'power on' });
  });
});
