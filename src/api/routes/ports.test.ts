import { describe, expect, it } from 'vitest';
import { useTestApi, faultString as fault, LATEST, version as V } from '../app.test-support.js';

const t = useTestApi();


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

describe('ports at microversions 1.88 to 1.94', () => {
  const post = (v: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/ports', headers: V(v), payload });
  const get = (v: string, url: string) => t.app.inject({ url, headers: V(v) });
  const patch = (v: string, ident: string, payload: unknown[]) => t.app.inject({ method: 'PATCH', url: `/v1/ports/${ident}`, headers: V(v), payload });

  it('1.88: a port name is set on create, shown from 1.88 only, unique, and names the port in its URL', async () => {
    const n = await node('pnm1');
    const created = await post('1.88', { address: '52:54:00:88:00:01', node_uuid: n.uuid, name: 'pnm1-eth0' });
    expect(created.statusCode, created.body).toBe(201);
    const p = created.json();
    expect(p.name).toBe('pnm1-eth0');

    // Newer than the version: refused as input (even null, as Ironic checks the key), hidden in output.
    for (const name of ['pnm1-eth9', null]) {
      const old = await post('1.87', { address: '52:54:00:88:00:02', node_uuid: n.uuid, name });
      expect(old.statusCode, old.body).toBe(406);
    }
    expect((await get('1.87', `/v1/ports/${p.uuid}`)).json()).not.toHaveProperty('name');
    expect((await get('1.87', '/v1/ports/detail')).json().ports.find((x: { uuid: string }) => x.uuid === p.uuid)).not.toHaveProperty('name');
    expect((await get('1.88', '/v1/ports/detail')).json().ports.find((x: { uuid: string }) => x.uuid === p.uuid).name).toBe('pnm1-eth0');
    expect((await get('1.87', '/v1/ports?fields=uuid,name')).statusCode).toBe(406);
    expect((await get('1.88', `/v1/ports?fields=uuid,name&node=${n.uuid}`)).json().ports).toEqual([{ uuid: p.uuid, name: 'pnm1-eth0', links: p.links }]);
    expect((await get('1.87', '/v1/ports?sort_key=name')).statusCode).toBe(406);
    expect((await get('1.88', '/v1/ports?sort_key=name')).statusCode).toBe(200);

    // Shown and updated by name (Ironic looks names up at every version), deleted by UUID only.
    expect((await get('1.88', '/v1/ports/pnm1-eth0')).json().uuid).toBe(p.uuid);
    expect((await get('1.1', '/v1/ports/pnm1-eth0')).json()).toEqual({ uuid: p.uuid, address: '52:54:00:88:00:01', node_uuid: n.uuid, extra: {}, created_at: p.created_at, updated_at: null, links: p.links });
    const bad = await get('1.88', '/v1/ports/no%20such');
    expect(bad.statusCode).toBe(400);
    expect(fault(bad.body)).toBe('Expected UUID or name for port_ident: no such');
    expect((await get('1.88', '/v1/ports/pnm1-eth1')).statusCode).toBe(404);
    // An integer is an internal id to Ironic, never a name: a port named '17' is not found under it.
    const seventeen = await post('1.88', { address: '52:54:00:88:00:17', node_uuid: n.uuid, name: '17' });
    expect(seventeen.json().name).toBe('17');
    expect((await get('1.88', '/v1/ports/17')).statusCode).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/v1/ports/${seventeen.json().uuid}`, headers: V('1.88') });

    const dup = await post('1.88', { address: '52:54:00:88:00:03', node_uuid: n.uuid, name: 'pnm1-eth0' });
    expect(dup.statusCode).toBe(409);
    expect(fault(dup.body)).toBe('A port with name pnm1-eth0 already exists.');

    const renamed = await patch('1.88', 'pnm1-eth0', [{ op: 'replace', path: '/name', value: 'pnm1-eth1' }]);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe('pnm1-eth1');
    expect((await get('1.88', '/v1/ports/pnm1-eth0')).statusCode).toBe(404);
    // Ironic does not version-check a PATCH of name: accepted below 1.88, and hidden in the answer.
    const oldRename = await patch('1.87', 'pnm1-eth1', [{ op: 'replace', path: '/name', value: 'pnm1-eth2' }]);
    expect(oldRename.statusCode, oldRename.body).toBe(200);
    expect(oldRename.json()).not.toHaveProperty('name');
    expect((await t.store.ports.get(p.uuid)).name).toBe('pnm1-eth2');
    expect((await patch('1.88', 'pnm1-eth2', [{ op: 'replace', path: '/name', value: 7 }])).statusCode).toBe(400);
    expect((await patch('1.88', 'pnm1-eth2', [{ op: 'add', path: '/node_ident', value: 'pnm1' }])).statusCode).toBe(400);
    const unnamed = await patch('1.88', 'pnm1-eth2', [{ op: 'remove', path: '/name' }]);
    expect(unnamed.json().name).toBeNull();

    await patch('1.88', p.uuid, [{ op: 'add', path: '/name', value: 'pnm1-gone' }]);
    const byName = await t.app.inject({ method: 'DELETE', url: '/v1/ports/pnm1-gone', headers: V('1.88') });
    expect(byName.statusCode).toBe(400);
    expect(fault(byName.body)).toBe('Expected UUID for port_uuid: pnm1-gone');
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/ports/${p.uuid}`, headers: V('1.88') })).statusCode).toBe(204);
  });

  it('1.90: local_link_connection takes an OVN VTEP switch; every link is checked against Ironic\'s schemas', async () => {
    const n = await node('pnm2');
    const vtep = { port_id: 'p1', 'vtep-logical-switch': 'ls1', 'vtep-physical-switch': 'ps1' };
    const created = await post('1.90', { address: '52:54:00:90:00:01', node_uuid: n.uuid, local_link_connection: vtep });
    expect(created.statusCode, created.body).toBe(201);
    const p = created.json();
    expect(p.local_link_connection).toEqual(vtep);
    expect((await post('1.89', { address: '52:54:00:90:00:02', node_uuid: n.uuid, local_link_connection: vtep })).statusCode).toBe(406);
    // Below 1.90 the field stays but cannot show the switch; below 1.19 there is no field.
    expect((await get('1.89', `/v1/ports/${p.uuid}`)).json().local_link_connection).toEqual({});
    expect((await get('1.89', `/v1/ports?node=${n.uuid}&detail=true`)).json().ports[0].local_link_connection).toEqual({});
    expect((await get('1.18', `/v1/ports/${p.uuid}`)).json()).not.toHaveProperty('local_link_connection');
    expect((await get('1.90', `/v1/ports/${p.uuid}`)).json().local_link_connection).toEqual(vtep);

    const cases: [Record<string, unknown>, number, string?][] = [
      [{ port_id: 'p1', 'vtep-logical-switch': 'ls1' }, 400, 'is not valid under any of the given schemas'],
      [{ 'vtep-logical-switch': 'ls1', 'vtep-physical-switch': 'ps1' }, 400],
      [{ port_id: 'Gi0/1' }, 400],
      [{ port_id: 'Gi0/1', switch_id: 'AA:BB:CC:00:00:01', colour: 'blue' }, 400],
      [{ port_id: 'Gi0/1', switch_id: 42 }, 400],
      [{ port_id: 'Gi0/1', switch_id: 'switch-a' }, 400, 'Expected a MAC address or OpenFlow datapath ID but received switch-a.'],
      [{ network_type: 'managed' }, 400],
      [{ port_id: 'Gi0/1', switch_id: 'x', network_type: 'other' }, 400],
      [{}, 201],
      [{ network_type: 'unmanaged' }, 201],
      [{ port_id: 'Gi0/1', hostname: 'host-1' }, 201],
    ];
    let mac = 0x10;
    for (const [link, status, message] of cases) {
      const res = await post('1.90', { address: `52:54:00:90:00:${(mac++).toString(16)}`, node_uuid: n.uuid, local_link_connection: link });
      expect(res.statusCode, `${JSON.stringify(link)}: ${res.body}`).toBe(status);
      if (message) expect(fault(res.body)).toContain(message);
    }
    const normalised = await post('1.90', { address: '52:54:00:90:00:30', node_uuid: n.uuid, local_link_connection: { port_id: 'Gi0/1', switch_id: 'AA:BB:CC:00:00:01' } });
    expect(normalised.json().local_link_connection).toEqual({ port_id: 'Gi0/1', switch_id: 'aa:bb:cc:00:00:01' });
    const datapath = await post('1.90', { address: '52:54:00:90:00:31', node_uuid: n.uuid, local_link_connection: { port_id: 'Gi0/2', switch_id: '00000000000000AB' } });
    expect(datapath.json().local_link_connection.switch_id).toBe('00000000000000ab');
    // network_type came with 1.64.
    expect((await post('1.63', { address: '52:54:00:90:00:32', node_uuid: n.uuid, local_link_connection: { network_type: 'unmanaged' } })).statusCode).toBe(406);

    // A Smart NIC port's link must name port_id and hostname.
    const nic = await post('1.90', { address: '52:54:00:90:00:33', node_uuid: n.uuid, is_smartnic: true, local_link_connection: { port_id: 'p', switch_id: 'aa:bb:cc:00:00:02' } });
    expect(nic.statusCode).toBe(400);
    expect(fault(nic.body)).toBe('Smart NIC port must have port_id and hostname in local_link_connection');
    expect((await post('1.90', { address: '52:54:00:90:00:33', node_uuid: n.uuid, is_smartnic: true, local_link_connection: { port_id: 'p', hostname: 'h' } })).statusCode).toBe(201);

    // PATCH: the changed link is checked and normalised; the VTEP keys come and go together.
    const plain = normalised.json();
    const toVtep = await patch('1.90', plain.uuid, [{ op: 'replace', path: '/local_link_connection', value: vtep }]);
    expect(toVtep.statusCode, toVtep.body).toBe(200);
    expect(toVtep.json().local_link_connection).toEqual(vtep);
    const half = await patch('1.90', plain.uuid, [{ op: 'remove', path: '/local_link_connection/vtep-physical-switch' }]);
    expect(half.statusCode).toBe(400);
    const upper = await patch('1.90', plain.uuid, [{ op: 'replace', path: '/local_link_connection', value: { port_id: 'x', switch_id: 'AA:BB:CC:00:00:09' } }]);
    expect(upper.json().local_link_connection.switch_id).toBe('aa:bb:cc:00:00:09');
    expect((await patch('1.63', plain.uuid, [{ op: 'add', path: '/local_link_connection/network_type', value: 'managed' }])).statusCode).toBe(406);
    expect((await patch('1.18', plain.uuid, [{ op: 'replace', path: '/local_link_connection', value: {} }])).statusCode).toBe(406);
  });

  it('1.94: a port is created on a node given by name or UUID in node_ident; node_uuid stays a UUID', async () => {
    const n = await node('pnm3');
    const byName = await post('1.94', { address: '52:54:00:94:00:01', node_ident: 'pnm3' });
    expect(byName.statusCode, byName.body).toBe(201);
    expect(byName.json().node_uuid).toBe(n.uuid);
    const byUuid = await post('1.94', { address: '52:54:00:94:00:02', node_ident: n.uuid });
    expect(byUuid.json().node_uuid).toBe(n.uuid);

    const old = await post('1.93', { address: '52:54:00:94:00:03', node_ident: 'pnm3' });
    expect(old.statusCode).toBe(406);
    const nameAsUuid = await post('1.94', { address: '52:54:00:94:00:03', node_uuid: 'pnm3' });
    expect(nameAsUuid.statusCode).toBe(400);
    expect(fault(nameAsUuid.body)).toBe('Expected UUID for node_uuid: pnm3');
    const both = await post('1.94', { address: '52:54:00:94:00:03', node_ident: 'pnm3', node_uuid: n.uuid });
    expect(both.statusCode).toBe(400);
    expect(fault(both.body)).toContain('exactly one of');
    const neither = await post('1.94', { address: '52:54:00:94:00:03' });
    expect(neither.statusCode).toBe(400);
    const missing = await post('1.94', { address: '52:54:00:94:00:03', node_ident: 'no-such-node' });
    expect(missing.statusCode).toBe(400);
    expect(fault(missing.body)).toContain('Node no-such-node could not be found.');
    expect((await t.store.ports.list({ node_id: (await t.store.nodes.get(n.uuid)).id }, { limit: 10 })).map((p) => p.address)).toEqual(['52:54:00:94:00:01', '52:54:00:94:00:02']);
  });
});
