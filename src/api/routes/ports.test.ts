import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, faultString as fault, LATEST, version as V, type TestApi } from '../test-support.js';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(async () => {
  await t.close();
});


async function node(name: string) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver: 'fake-hardware', name } });
  return res.json() as { uuid: string };
}

describe('ports', () => {
  it('creates with a normalised MAC, lists by node and address, rejects duplicates with 409', async () => {
    const n = await node('pn1');
    const res = await t.app.inject({ method: 'POST', url: '/v1/ports', headers: LATEST, payload: { address: '52:54:00:AA:BB:01', node_uuid: n.uuid } });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p.address).toBe('52:54:00:aa:bb:01');
    expect(p.node_uuid).toBe(n.uuid);
    expect(p.pxe_enabled).toBe(true);
    expect(res.headers.location).toContain(`/v1/ports/${p.uuid}`);

    const dup = await t.app.inject({ method: 'POST', url: '/v1/ports', headers: LATEST, payload: { address: '52:54:00:aa:bb:01', node_uuid: n.uuid } });
    expect(dup.statusCode).toBe(409);

    const byAddr = (await t.app.inject({ url: '/v1/ports?address=52:54:00:AA:BB:01', headers: LATEST })).json();
    expect(byAddr.ports).toEqual([{ uuid: p.uuid, address: '52:54:00:aa:bb:01', links: p.links }]);
    const byNode = (await t.app.inject({ url: `/v1/nodes/pn1/ports`, headers: LATEST })).json();
    expect(byNode.ports.map((x: { uuid: string }) => x.uuid)).toEqual([p.uuid]);
    const byNodeParam = (await t.app.inject({ url: `/v1/ports?node=pn1&detail=true`, headers: LATEST })).json();
    expect(byNodeParam.ports[0]).toHaveProperty('local_link_connection');
  });

  it('gates port fields by version', async () => {
    const n = await node('pn2');
    const res = await t.app.inject({ method: 'POST', url: '/v1/ports', headers: V('1.18'), payload: { address: '52:54:00:aa:bb:02', node_uuid: n.uuid, pxe_enabled: false } });
    expect(res.statusCode).toBe(406);
    const ok = await t.app.inject({ method: 'POST', url: '/v1/ports', headers: V('1.18'), payload: { address: '52:54:00:aa:bb:02', node_uuid: n.uuid } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).not.toHaveProperty('pxe_enabled');
    expect(ok.json()).toHaveProperty('internal_info');
  });

  it('requires node_uuid and an existing node', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/v1/ports', headers: LATEST, payload: { address: '52:54:00:aa:bb:03' } });
    expect(missing.statusCode).toBe(400);
    expect(fault(missing.body)).toContain('node_uuid');
    const noNode = await t.app.inject({ method: 'POST', url: '/v1/ports', headers: LATEST, payload: { address: '52:54:00:aa:bb:03', node_uuid: '6e2b5b5c-6a4e-4c1e-9d2a-2f0f1a2b3c4d' } });
    expect(noNode.statusCode).toBe(400);
  });

  it('patches and deletes ports', async () => {
    const n = await node('pn4');
    const p = (await t.app.inject({ method: 'POST', url: '/v1/ports', headers: LATEST, payload: { address: '52:54:00:aa:bb:04', node_uuid: n.uuid } })).json();
    const res = await t.app.inject({
      method: 'PATCH', url: `/v1/ports/${p.uuid}`, headers: LATEST,
      payload: [{ op: 'replace', path: '/address', value: '52:54:00:AA:BB:44' }, { op: 'add', path: '/extra/vlan', value: 7 }, { op: 'replace', path: '/pxe_enabled', value: false }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ address: '52:54:00:aa:bb:44', extra: { vlan: 7 }, pxe_enabled: false });
    const bad = await t.app.inject({ method: 'PATCH', url: `/v1/ports/${p.uuid}`, headers: LATEST, payload: [{ op: 'remove', path: '/address' }] });
    expect(bad.statusCode).toBe(400);
    const badMac = await t.app.inject({ method: 'PATCH', url: `/v1/ports/${p.uuid}`, headers: LATEST, payload: [{ op: 'replace', path: '/address', value: 'nope' }] });
    expect(badMac.statusCode).toBe(400);
    expect((await t.store.ports.get(p.uuid)).address).toBe('52:54:00:aa:bb:44');
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/ports/${p.uuid}`, headers: LATEST })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `/v1/ports/${p.uuid}`, headers: LATEST })).statusCode).toBe(404);
  });
});

describe('portgroups', () => {
  it('creates, shows by name, lists by node and deletes (1.23+)', async () => {
    const n = await node('pg1');
    expect((await t.app.inject({ url: '/v1/portgroups', headers: V('1.22') })).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'POST', url: '/v1/portgroups', headers: LATEST, payload: { node_uuid: n.uuid, name: 'bond0', address: '52:54:00:CC:00:01' } });
    expect(res.statusCode, res.body).toBe(201);
    const pg = res.json();
    expect(pg).toMatchObject({ name: 'bond0', address: '52:54:00:cc:00:01', node_uuid: n.uuid, mode: 'active-backup' });
    expect((await t.app.inject({ url: '/v1/portgroups/bond0', headers: LATEST })).json().uuid).toBe(pg.uuid);
    const list = (await t.app.inject({ url: `/v1/nodes/${n.uuid}/portgroups`, headers: LATEST })).json();
    expect(list.portgroups).toEqual([{ uuid: pg.uuid, address: '52:54:00:cc:00:01', name: 'bond0', links: pg.links }]);
    const port = await t.app.inject({ method: 'POST', url: '/v1/ports', headers: LATEST, payload: { address: '52:54:00:cc:00:02', node_uuid: n.uuid, portgroup_uuid: pg.uuid } });
    expect(port.json().portgroup_uuid).toBe(pg.uuid);
    const members = (await t.app.inject({ url: `/v1/portgroups/${pg.uuid}/ports`, headers: LATEST })).json();
    expect(members.ports).toHaveLength(1);
    const patched = await t.app.inject({ method: 'PATCH', url: '/v1/portgroups/bond0', headers: LATEST, payload: [{ op: 'replace', path: '/mode', value: '802.3ad' }] });
    expect(patched.json().mode).toBe('802.3ad');
    await t.app.inject({ method: 'DELETE', url: `/v1/ports/${port.json().uuid}`, headers: LATEST });
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/portgroups/bond0', headers: LATEST })).statusCode).toBe(204);
  });
});
