import { describe, expect, it } from 'vitest';
import { useTestApi, LATEST, version as V } from '../app.test-support.js';

const t = useTestApi();


describe('chassis', () => {
  it('creates, lists, links nodes, patches and refuses deleting a non-empty chassis', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/chassis', headers: LATEST, payload: { description: 'rack A' } });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    expect(c.nodes[0].href).toContain(`/v1/chassis/${c.uuid}/nodes`);
    const list = (await t.app.inject({ url: '/v1/chassis', headers: LATEST })).json();
    expect(list.chassis).toEqual([{ uuid: c.uuid, description: 'rack A', links: c.links }]);

    const n = (await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'fake-hardware', chassis_uuid: c.uuid } })).json();
    expect(n.chassis_uuid).toBe(c.uuid);
    const nodes = (await t.app.inject({ url: `/v1/chassis/${c.uuid}/nodes`, headers: LATEST })).json();
    expect(nodes.nodes.map((x: { uuid: string }) => x.uuid)).toEqual([n.uuid]);
    const filtered = (await t.app.inject({ url: `/v1/nodes?chassis_uuid=${c.uuid}`, headers: LATEST })).json();
    expect(filtered.nodes).toHaveLength(1);

    const badChassis = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'fake-hardware', chassis_uuid: '6e2b5b5c-6a4e-4c1e-9d2a-2f0f1a2b3c4d' } });
    expect(badChassis.statusCode).toBe(400);

    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/chassis/${c.uuid}`, headers: LATEST, payload: [{ op: 'replace', path: '/description', value: 'rack B' }] });
    expect(patched.json().description).toBe('rack B');
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/chassis/${c.uuid}`, headers: LATEST })).statusCode).toBe(400);
    // Unset the chassis through a node patch, then the chassis can go.
    const unset = await t.app.inject({ method: 'PATCH', url: `/v1/nodes/${n.uuid}`, headers: LATEST, payload: [{ op: 'remove', path: '/chassis_uuid' }] });
    expect(unset.statusCode, unset.body).toBe(200);
    expect(unset.json().chassis_uuid).toBeNull();
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/chassis/${c.uuid}`, headers: LATEST })).statusCode).toBe(204);
  });
});

describe('drivers', () => {
  it('lists drivers, shows one with interface details, and its properties', async () => {
    const list = (await t.app.inject({ url: '/v1/drivers', headers: LATEST })).json();
    expect(list.drivers.map((d: { name: string }) => d.name)).toEqual(['fake-hardware', 'manual-management']);
    expect(list.drivers[0]).toMatchObject({ type: 'dynamic', hosts: ['test-conductor'], default_power_interface: null });
    const detail = (await t.app.inject({ url: '/v1/drivers?detail=true', headers: LATEST })).json();
    expect(detail.drivers[0].default_power_interface).toBe('fake');
    const one = (await t.app.inject({ url: '/v1/drivers/fake-hardware', headers: LATEST })).json();
    expect(one.enabled_power_interfaces).toEqual(['fake', 'no-power']);
    expect(one.properties[0].href).toContain('/v1/drivers/fake-hardware/properties');
    const old = (await t.app.inject({ url: '/v1/drivers/fake-hardware', headers: V('1.29') })).json();
    expect(old).not.toHaveProperty('type');
    expect((await t.app.inject({ url: '/v1/drivers/nope', headers: LATEST })).statusCode).toBe(404);
    const props = (await t.app.inject({ url: '/v1/drivers/fake-hardware/properties', headers: LATEST })).json();
    expect(props).toHaveProperty('deploy_kernel');
    expect((await t.app.inject({ url: '/v1/drivers?type=classic', headers: LATEST })).json()).toEqual({ drivers: [] });
  });
});

describe('conductors', () => {
  it('lists and shows conductors with liveness (1.49)', async () => {
    await t.store.conductors.register('cond-1', '', ['fake-hardware']);
    const list = (await t.app.inject({ url: '/v1/conductors', headers: LATEST })).json();
    expect(list.conductors).toEqual([
      { hostname: 'cond-1', conductor_group: '', alive: true, links: list.conductors[0].links },
    ]);
    const one = (await t.app.inject({ url: '/v1/conductors/cond-1', headers: LATEST })).json();
    expect(one).toMatchObject({ hostname: 'cond-1', drivers: ['fake-hardware'], alive: true });
    await t.store.conductors.unregister('cond-1');
    expect((await t.app.inject({ url: '/v1/conductors/cond-1', headers: LATEST })).json().alive).toBe(false);
    expect((await t.app.inject({ url: '/v1/conductors/nope', headers: LATEST })).statusCode).toBe(404);
  });
});
