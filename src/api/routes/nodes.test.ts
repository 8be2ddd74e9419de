import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApi, faultString as fault, LATEST, version as V } from '../app.test-support.js';

const t = useTestApi({ max_limit: 50 });
beforeEach(async () => {
  for (const n of await t.store.nodes.list({}, { limit: 0 })) await t.store.nodes.delete(n.uuid);
});


async function create(body: Record<string, unknown>, version = 'latest') {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: V(version), payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('node create and show', () => {
  it('creates a node in enroll with a Location header and returns every field of the version', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/nodes', headers: { ...LATEST, host: 'api.test' },
      payload: { driver: 'fake-hardware', name: 'node-1', driver_info: { ipmi_password: 'secret', ipmi_address: '10.0.0.1' } },
    });
    expect(res.statusCode).toBe(201);
    const n = res.json();
    expect(res.headers.location).toBe(`http://api.test/v1/nodes/${n.uuid}`);
    expect(n.provision_state).toBe('enroll');
    expect(n.driver_info).toEqual({ ipmi_password: '******', ipmi_address: '10.0.0.1' });
    expect(n.shard).toBeNull();
    expect(n.conductor).toBe('test-conductor');
    expect(n.traits).toEqual([]);
    expect(n.allocation_uuid).toBeNull();
    expect(n.links).toEqual([
      { href: `http://api.test/v1/nodes/${n.uuid}`, rel: 'self' },
      { href: `http://api.test/nodes/${n.uuid}`, rel: 'bookmark' },
    ]);
    expect(n.states[0].href).toBe(`http://api.test/v1/nodes/${n.uuid}/states`);
    // The secret is stored as sent, only the response masks it.
    expect((await t.store.nodes.get(n.uuid)).driver_info.ipmi_password).toBe('secret');
  });

  it('creates nodes as available before 1.11', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: V('1.10'), payload: { driver: 'fake-hardware' } });
    expect(res.statusCode).toBe(201);
    expect((await t.store.nodes.get(res.json().uuid)).provision_state).toBe('available');
    // ... and shows available as null (NOSTATE) at 1.1.
    const old = await t.app.inject({ method: 'GET', url: `/v1/nodes/${res.json().uuid}` });
    expect(old.json().provision_state).toBeNull();
  });

  it('gets by UUID and by name (1.5+), 404 otherwise', async () => {
    const n = await create({ driver: 'fake-hardware', name: 'by-name' });
    expect((await t.app.inject({ url: `/v1/nodes/${n.uuid}`, headers: LATEST })).json().name).toBe('by-name');
    expect((await t.app.inject({ url: '/v1/nodes/by-name', headers: V('1.5') })).json().uuid).toBe(n.uuid);
    expect((await t.app.inject({ url: '/v1/nodes/by-name', headers: V('1.4') })).statusCode).toBe(404);
    const missing = await t.app.inject({ url: '/v1/nodes/nope', headers: LATEST });
    expect(missing.statusCode).toBe(404);
    expect(fault(missing.body)).toContain('nope');
  });

  it('omits fields newer than the requested version', async () => {
    const n = await create({ driver: 'fake-hardware', name: 'gated' });
    const old = (await t.app.inject({ url: `/v1/nodes/${n.uuid}`, headers: V('1.1') })).json();
    expect(old).not.toHaveProperty('shard');
    expect(old).not.toHaveProperty('name');
    expect(old).not.toHaveProperty('driver_internal_info');
    expect(old).not.toHaveProperty('states');
    expect(old).toHaveProperty('driver', 'fake-hardware');
    const v82 = (await t.app.inject({ url: `/v1/nodes/${n.uuid}`, headers: V('1.82') })).json();
    expect(v82).toHaveProperty('shard', null);
    expect(v82).not.toHaveProperty('parent_node');
  });

  it('rejects fields newer than the version in requests with 406', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: V('1.81'), payload: { driver: 'fake-hardware', shard: 'a' } });
    expect(res.statusCode).toBe(406);
    const list = await t.app.inject({ url: '/v1/nodes?fields=uuid,shard', headers: V('1.81') });
    expect(list.statusCode).toBe(406);
    const filter = await t.app.inject({ url: '/v1/nodes?shard=a', headers: V('1.81') });
    expect(filter.statusCode).toBe(406);
    expect(await t.store.nodes.count({})).toBe(0);
  });

  it('shows only the requested fields (plus links)', async () => {
    const n = await create({ driver: 'fake-hardware', name: 'f' });
    const res = await t.app.inject({ url: `/v1/nodes/f?fields=uuid,driver`, headers: LATEST });
    expect(Object.keys(res.json()).sort()).toEqual(['driver', 'links', 'uuid']);
    expect(res.json().uuid).toBe(n.uuid);
    const bad = await t.app.inject({ url: `/v1/nodes/f?fields=uuid,bogus`, headers: LATEST });
    expect(bad.statusCode).toBe(400);
    expect(fault(bad.body)).toContain('bogus');
  });
});

describe('node list', () => {
  async function seed() {
    const a = await create({ driver: 'fake-hardware', name: 'a', resource_class: 'gold', owner: 'p1' });
    const b = await create({ driver: 'manual-management', name: 'b', resource_class: 'silver', conductor_group: 'G1' });
    const c = await create({ driver: 'fake-hardware', name: 'c', resource_class: 'gold', maintenance: true });
    return { a, b, c };
  }

  it('returns the default fields without detail, all fields with detail', async () => {
    await seed();
    const res = (await t.app.inject({ url: '/v1/nodes', headers: LATEST })).json();
    expect(res.nodes).toHaveLength(3);
    expect(Object.keys(res.nodes[0]).sort()).toEqual(['instance_uuid', 'links', 'maintenance', 'name', 'power_state', 'provision_state', 'uuid']);
    expect(res.next).toBeUndefined();
    const detail = (await t.app.inject({ url: '/v1/nodes?detail=True', headers: LATEST })).json();
    expect(detail.nodes[0]).toHaveProperty('driver_info');
    const detailUrl = (await t.app.inject({ url: '/v1/nodes/detail', headers: LATEST })).json();
    expect(detailUrl.nodes[0]).toHaveProperty('properties');
    const both = await t.app.inject({ url: '/v1/nodes?detail=True&fields=uuid', headers: LATEST });
    expect(both.statusCode).toBe(400);
    const oldDetail = await t.app.inject({ url: '/v1/nodes?detail=True', headers: V('1.42') });
    expect(oldDetail.statusCode).toBe(400);
  });

  it('filters', async () => {
    const { a, b, c } = await seed();
    const names = async (q: string) =>
      ((await t.app.inject({ url: `/v1/nodes?${q}`, headers: LATEST })).json().nodes as { name: string }[]).map((n) => n.name).sort();
    expect(await names('driver=fake-hardware')).toEqual(['a', 'c']);
    expect(await names('resource_class=gold')).toEqual(['a', 'c']);
    expect(await names('maintenance=true')).toEqual(['c']);
    expect(await names('maintenance=false')).toEqual(['a', 'b']);
    expect(await names('owner=p1')).toEqual(['a']);
    expect(await names('conductor_group=g1')).toEqual(['b']);
    expect(await names('provision_state=enroll')).toEqual(['a', 'b', 'c']);
    expect(await names('associated=true')).toEqual([]);
    expect(await names('conductor=test-conductor')).toEqual(['a', 'b', 'c']);
    expect(await names('conductor=elsewhere')).toEqual([]);
    expect([a.name, b.name, c.name]).toEqual(['a', 'b', 'c']);
    const bad = await t.app.inject({ url: '/v1/nodes?provision_state=bogus', headers: LATEST });
    expect(bad.statusCode).toBe(400);
    const badBool = await t.app.inject({ url: '/v1/nodes?maintenance=perhaps', headers: LATEST });
    expect(badBool.statusCode).toBe(400);
    expect(fault(badBool.body)).toContain('maintenance');
    const tooOld = await t.app.inject({ url: '/v1/nodes?driver=fake-hardware', headers: V('1.15') });
    expect(tooOld.statusCode).toBe(406);
  });

  it('filters by newer fields: shard, sharded, description_contains, retired, lessee, parent_node', async () => {
    const p = await create({ driver: 'fake-hardware', name: 'parent', shard: 's1', description: 'in rack 7', lessee: 'l1' });
    await create({ driver: 'fake-hardware', name: 'child', parent_node: p.uuid, retired: true });
    const names = async (q: string) =>
      ((await t.app.inject({ url: `/v1/nodes?${q}`, headers: LATEST })).json().nodes as { name: string }[]).map((n) => n.name).sort();
    expect(await names('shard=s1')).toEqual(['parent']);
    expect(await names('sharded=false')).toEqual(['child']);
    expect(await names('description_contains=rack')).toEqual(['parent']);
    expect(await names('retired=true')).toEqual(['child']);
    expect(await names('lessee=l1')).toEqual(['parent']);
    expect(await names(`parent_node=${p.uuid}`)).toEqual(['child']);
    expect((await t.app.inject({ url: '/v1/nodes?lessee=l1', headers: V('1.64') })).statusCode).toBe(406);
  });

  it('pages with limit, marker and a next link only when the page is full', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await create({ driver: 'fake-hardware', name: `p${i}` }));
    const page1 = await t.app.inject({ url: '/v1/nodes?limit=2&driver=fake-hardware', headers: { ...LATEST, host: 'h' } });
    const b1 = page1.json();
    expect(b1.nodes.map((n: { uuid: string }) => n.uuid)).toEqual([made[0].uuid, made[1].uuid]);
    expect(b1.next).toBe(`http://h/v1/nodes?driver=fake-hardware&limit=2&marker=${made[1].uuid}`);
    const page3 = (await t.app.inject({ url: `/v1/nodes?limit=2&marker=${made[3].uuid}`, headers: LATEST })).json();
    expect(page3.nodes.map((n: { name: string }) => n.name)).toEqual(['p4']);
    expect(page3.next).toBeUndefined();
    for (const limit of ['0', '-1', 'x']) {
      expect((await t.app.inject({ url: `/v1/nodes?limit=${limit}`, headers: LATEST })).statusCode).toBe(400);
    }
    // A limit above max_limit (50 here) is capped.
    expect((await t.app.inject({ url: '/v1/nodes?limit=5000', headers: LATEST })).statusCode).toBe(200);
  });

  it('sorts by sort_key and sort_dir', async () => {
    await seed();
    const desc = (await t.app.inject({ url: '/v1/nodes?sort_key=name&sort_dir=desc', headers: LATEST })).json();
    expect(desc.nodes.map((n: { name: string }) => n.name)).toEqual(['c', 'b', 'a']);
    expect((await t.app.inject({ url: '/v1/nodes?sort_dir=up', headers: LATEST })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/nodes?sort_key=driver_info', headers: LATEST })).statusCode).toBe(400);
  });

  it('selects fields in lists', async () => {
    await seed();
    const res = (await t.app.inject({ url: '/v1/nodes?fields=name,resource_class', headers: LATEST })).json();
    expect(Object.keys(res.nodes[0]).sort()).toEqual(['links', 'name', 'resource_class']);
  });
});

describe('node patch', () => {
  it('applies add/replace/remove including nested secret paths and returns the masked node', async () => {
    const n = await create({ driver: 'fake-hardware', name: 'patchme', extra: { a: 1 } });
    const res = await t.app.inject({
      method: 'PATCH', url: '/v1/nodes/patchme', headers: LATEST,
      payload: [
        { op: 'add', path: '/driver_info/ipmi_password', value: 'pw' },
        { op: 'replace', path: '/description', value: 'rack 4' },
        { op: 'remove', path: '/extra/a' },
        { op: 'replace', path: '/maintenance', value: 'true' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.driver_info).toEqual({ ipmi_password: '******' });
    expect(body.description).toBe('rack 4');
    expect(body.maintenance).toBe(true);
    const stored = await t.store.nodes.get(n.uuid);
    expect(stored.driver_info).toEqual({ ipmi_password: 'pw' });
    expect(stored.extra).toEqual({});
    expect(t.conductor.calls).toContain('updateNode');
  });

  it('renames and then finds the node by its new name', async () => {
    await create({ driver: 'fake-hardware', name: 'old-name' });
    const res = await t.app.inject({ method: 'PATCH', url: '/v1/nodes/old-name', headers: LATEST, payload: [{ op: 'replace', path: '/name', value: 'new-name' }] });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/nodes/new-name', headers: LATEST })).statusCode).toBe(200);
  });

  it.each([
    [[{ op: 'replace', path: '/uuid', value: 'x' }], 'internal attribute'],
    [[{ op: 'replace', path: '/provision_state', value: 'active' }], 'Cannot patch /provision_state'],
    [[{ op: 'remove', path: '/driver' }], 'mandatory attribute'],
    [[{ op: 'move', path: '/name', from: '/x' }], 'op "move"'],
    [[{ op: 'replace', path: 'name', value: 'x' }], 'path'],
    [[{ op: 'replace', path: '/name' }], 'need a value'],
    [{ op: 'replace', path: '/name', value: 'x' }, 'JSON array'],
    [[{ op: 'remove', path: '/extra/missing' }], "Couldn't apply patch"],
    [[{ op: 'replace', path: '/driver_info', value: 'not-an-object' }], 'driver_info'],
    [[{ op: 'replace', path: '/maintenance', value: 'maybe' }], 'maintenance'],
    [[{ op: 'replace', path: '/name', value: 'bad name!' }], 'invalid name'],
    [[{ op: 'add', path: '/traits', value: ['CUSTOM_X'] }], 'Cannot patch /traits'],
  ])('rejects %j with 400 naming the problem and changes nothing', async (patch, message) => {
    const n = await create({ driver: 'fake-hardware', name: 'guarded', extra: { keep: true } });
    const before = await t.store.nodes.get(n.uuid);
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/nodes/${n.uuid}`, headers: LATEST, payload: patch });
    expect(res.statusCode).toBe(400);
    expect(fault(res.body)).toContain(message);
    expect(await t.store.nodes.get(n.uuid)).toEqual(before);
  });

  it('rejects patching a field newer than the version with 406', async () => {
    const n = await create({ driver: 'fake-hardware' });
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/nodes/${n.uuid}`, headers: V('1.81'), payload: [{ op: 'add', path: '/shard', value: 's' }] });
    expect(res.statusCode).toBe(406);
  });

  it('refuses updates while a transition is in progress (409)', async () => {
    const n = await create({ driver: 'fake-hardware' });
    await t.store.nodes.update(n.uuid, { provision_state: 'deploying', target_provision_state: 'active' });
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/nodes/${n.uuid}`, headers: LATEST, payload: [{ op: 'add', path: '/extra/x', value: 1 }] });
    expect(res.statusCode).toBe(409);
  });
});

describe('node delete', () => {
  it('deletes in enroll (204) and refuses in active (409)', async () => {
    const n = await create({ driver: 'fake-hardware', name: 'del' });
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/nodes/del', headers: LATEST })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `/v1/nodes/${n.uuid}`, headers: LATEST })).statusCode).toBe(404);
    const m = await create({ driver: 'fake-hardware' });
    await t.store.nodes.update(m.uuid, { provision_state: 'active' });
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/nodes/${m.uuid}`, headers: LATEST });
    expect(res.statusCode).toBe(409);
    expect(await t.store.nodes.get(m.uuid)).toBeTruthy();
  });
});

describe('disable_power_off (1.95)', () => {
  const patch = (uuid: string, version: string, ops: unknown[]) =>
    t.app.inject({ method: 'PATCH', url: `/v1/nodes/${uuid}`, headers: V(version), payload: ops });

  it('is shown from 1.95 on, false by default, and a fields or sort_key request for it is refused below', async () => {
    const n = await create({ driver: 'fake-hardware', name: 'dpo-show' });
    expect(n.disable_power_off).toBe(false);
    expect((await t.app.inject({ url: '/v1/nodes/dpo-show', headers: V('1.95') })).json().disable_power_off).toBe(false);
    expect((await t.app.inject({ url: '/v1/nodes/dpo-show', headers: V('1.94') })).json()).not.toHaveProperty('disable_power_off');
    const detail = (await t.app.inject({ url: '/v1/nodes/detail', headers: V('1.94') })).json();
    expect(detail.nodes[0]).not.toHaveProperty('disable_power_off');
    const only = await t.app.inject({ url: '/v1/nodes?fields=uuid,disable_power_off', headers: V('1.95') });
    expect(only.json().nodes).toEqual([{ uuid: n.uuid, disable_power_off: false, links: expect.any(Array) }]);
    expect((await t.app.inject({ url: '/v1/nodes?fields=disable_power_off', headers: V('1.94') })).statusCode).toBe(406);
    expect((await t.app.inject({ url: '/v1/nodes?sort_key=disable_power_off', headers: V('1.94') })).statusCode).toBe(406);
  });

  it('is set at create from 1.95 (booleans and their spellings) and refused with 406 below', async () => {
    expect((await create({ driver: 'fake-hardware', name: 'dpo-a', disable_power_off: true }, '1.95')).disable_power_off).toBe(true);
    expect((await create({ driver: 'fake-hardware', name: 'dpo-b', disable_power_off: 'yes' }, '1.95')).disable_power_off).toBe(true);
    expect((await create({ driver: 'fake-hardware', name: 'dpo-c', disable_power_off: null }, '1.95')).disable_power_off).toBe(false);
    expect((await t.store.nodes.get('dpo-a')).disable_power_off).toBe(true);
    const old = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: V('1.94'), payload: { driver: 'fake-hardware', disable_power_off: true } });
    expect(old.statusCode).toBe(406);
    expect(fault(old.body)).toContain('disable_power_off');
    // An empty value is no value, at any version (Ironic's reject_fields_in_newer_versions).
    expect((await create({ driver: 'fake-hardware', name: 'dpo-d', disable_power_off: null }, '1.94')).disable_power_off).toBeUndefined();
    const bad = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: V('1.95'), payload: { driver: 'fake-hardware', disable_power_off: 'perhaps' } });
    expect(bad.statusCode).toBe(400);
    expect(fault(bad.body)).toContain('disable_power_off');
  });

  it('is patched from 1.95 on (removing it means false) and refused with 406 below', async () => {
    const n = await create({ driver: 'fake-hardware', name: 'dpo-p' });
    expect((await patch(n.uuid, '1.94', [{ op: 'replace', path: '/disable_power_off', value: true }])).statusCode).toBe(406);
    expect((await t.store.nodes.get(n.uuid)).disable_power_off).toBe(false);
    const on = await patch(n.uuid, '1.95', [{ op: 'replace', path: '/disable_power_off', value: 'true' }]);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().disable_power_off).toBe(true);
    expect((await t.store.nodes.get(n.uuid)).disable_power_off).toBe(true);
    const off = await patch(n.uuid, '1.95', [{ op: 'remove', path: '/disable_power_off' }]);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().disable_power_off).toBe(false);
    expect((await patch(n.uuid, '1.95', [{ op: 'replace', path: '/disable_power_off', value: 3 }])).statusCode).toBe(400);
  });

  it('sorts by it from 1.95 on', async () => {
    const a = await create({ driver: 'fake-hardware', name: 'dpo-s1', disable_power_off: true }, '1.95');
    const b = await create({ driver: 'fake-hardware', name: 'dpo-s2' });
    const res = await t.app.inject({ url: '/v1/nodes?sort_key=disable_power_off&sort_dir=desc&limit=1', headers: V('1.95') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().nodes.map((n: { uuid: string }) => n.uuid)).toEqual([a.uuid]);
    const next = await t.app.inject({ url: res.json().next.replace(/^http:\/\/[^/]+/, ''), headers: V('1.95') });
    expect(next.json().nodes.map((n: { uuid: string }) => n.uuid)).toEqual([b.uuid]);
  });
});
