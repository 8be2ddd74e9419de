/**
 * The API and the real conductor together, on a real SQLite store: races for the node lock, the worker
 * pool limit and failure handling, seen as an API client sees them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/api/app.js';
import { startTestConductor, waitForState, type TestConductor } from '../src/conductor/test-support.js';
import { silentLogger } from '../src/shared/logger.js';
import { faultString, testApiConfig } from '../src/api/test-support.js';

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
    app = buildApp({ store: t.store, conductor: t.conductor.client, config: testApiConfig(), logger: silentLogger() });
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
