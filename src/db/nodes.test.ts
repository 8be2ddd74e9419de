import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestStore } from '../../test/support/stores.js';
import { IngotError } from '../shared/errors.js';
import { newUuid } from '../shared/ids.js';
import { codeOf } from './error-code.test-support.js';

describe.each(DIALECTS)('nodes on %s', (dialect) => {
  const store = useTestStore(dialect, { emptyNodes: true });

  it('creates with defaults and reads back by uuid, name and id', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware', name: 'node-a', properties: { cpus: 4, memory_mb: 1024 }, maintenance: true });
    expect(n.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(n.provision_state).toBe('enroll');
    expect(n.maintenance).toBe(true);
    expect(n.console_enabled).toBe(false);
    expect(n.automated_clean).toBeNull();
    expect(n.traits).toEqual([]);
    expect(n.driver_info).toEqual({});
    expect(n.conductor_group).toBe('');
    expect(n.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(n.updated_at).toBeNull();
    expect(await store.nodes.get(n.uuid)).toEqual(n);
    expect(await store.nodes.get(n.uuid.toUpperCase())).toEqual(n);
    expect(await store.nodes.get('node-a')).toEqual(n);
    expect(await store.nodes.getById(n.id)).toEqual(n);
  });

  it('writes last_error and history events with secrets masked, whoever writes them', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware', name: 'node-masked' });
    const updated = await store.nodes.update(n.uuid, { last_error: 'GET http://u:pw-9876@10.0.0.1/x failed; ipmitool password=pw-1234' });
    expect(updated.last_error).toBe('GET http://u:******@10.0.0.1/x failed; ipmitool password=******');
    await store.history.record({ node_id: n.id, severity: 'ERROR', event_type: 'power', event: '{"redfish_password": "pw-5555"} refused', conductor: null, user: null, duration_ms: null });
    expect((await store.history.list(n.id, { limit: 5 }))[0]?.event).toBe('{"redfish_password": "******"} refused');
  });

  it('reports missing nodes like Ironic', async () => {
    expect(await codeOf(store.nodes.get('nope'))).toEqual({ code: 'NodeNotFound', message: 'Node nope could not be found.' });
    const u = newUuid();
    expect((await codeOf(store.nodes.update(u, { name: 'x' }))).code).toBe('NodeNotFound');
    expect((await codeOf(store.nodes.delete(u))).code).toBe('NodeNotFound');
    expect((await codeOf(store.nodes.reserve(u, 'h1'))).code).toBe('NodeNotFound');
    expect((await codeOf(store.nodes.getById(987654))).code).toBe('NodeNotFound');
  });

  it('maps unique violations to Ironic codes', async () => {
    const a = await store.nodes.create({ driver: 'fake-hardware', name: 'dup', instance_uuid: '11111111-2222-3333-4444-555555555555' });
    expect(await codeOf(store.nodes.create({ driver: 'fake-hardware', name: 'dup' }))).toEqual({
      code: 'DuplicateName',
      message: 'A node with name dup already exists.',
    });
    expect((await codeOf(store.nodes.create({ driver: 'fake-hardware', uuid: a.uuid }))).code).toBe('NodeAlreadyExists');
    expect((await codeOf(store.nodes.create({ driver: 'fake-hardware', instance_uuid: a.instance_uuid }))).code).toBe('InstanceAssociated');
    const b = await store.nodes.create({ driver: 'fake-hardware', name: 'other' });
    expect((await codeOf(store.nodes.update(b.uuid, { name: 'dup' }))).code).toBe('DuplicateName');
    // Names may be unset on many nodes at once.
    await store.nodes.create({ driver: 'fake-hardware' });
    await store.nodes.create({ driver: 'fake-hardware' });
    expect(await store.nodes.count({})).toBe(4);
  });

  it('updates fields, JSON dicts and updated_at, and rejects unknown fields', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware', name: 'upd' });
    const u = await store.nodes.update(n.uuid, {
      driver_info: { ipmi_address: '10.0.0.1', nested: { a: [1, 2] } },
      provision_state: 'manageable',
      secure_boot: false,
      description: null,
    });
    expect(u.driver_info).toEqual({ ipmi_address: '10.0.0.1', nested: { a: [1, 2] } });
    expect(u.provision_state).toBe('manageable');
    expect(u.secure_boot).toBe(false);
    expect(u.updated_at).not.toBeNull();
    expect(u.name).toBe('upd');
    expect((await codeOf(store.nodes.update(n.uuid, { bogus: 1 } as never))).code).toBe('InvalidParameterValue');
  });

  it('filters by every NodeFilter field', async () => {
    const ch = await store.chassis.create({ description: 'rack 1' });
    const a = await store.nodes.create({
      driver: 'fake-hardware', name: 'f-a', provision_state: 'available', resource_class: 'gold', conductor_group: 'g1',
      owner: 'o1', lessee: 'l1', maintenance: true, fault: 'power failure', instance_uuid: newUuid(), chassis_id: ch.id,
      shard: 's1', parent_node: 'p1', description: 'Big 100% Box', retired: true,
    });
    const b = await store.nodes.create({ driver: 'ipmi', name: 'f-b', provision_state: 'active', shard: 's2', description: 'small' });
    const c = await store.nodes.create({ driver: 'ipmi', name: 'f-c' });
    await store.nodes.reserve(c.uuid, 'host-x');
    const names = async (f: Parameters<typeof store.nodes.list>[0]) =>
      (await store.nodes.list(f, { limit: 100 })).map((n) => n.name).sort();
    expect(await names({ provision_state: 'available' })).toEqual(['f-a']);
    expect(await names({ driver: 'ipmi' })).toEqual(['f-b', 'f-c']);
    expect(await names({ resource_class: 'gold' })).toEqual(['f-a']);
    expect(await names({ conductor_group: 'g1' })).toEqual(['f-a']);
    expect(await names({ conductor_group: '' })).toEqual(['f-b', 'f-c']);
    expect(await names({ owner: 'o1' })).toEqual(['f-a']);
    expect(await names({ lessee: 'l1' })).toEqual(['f-a']);
    expect(await names({ maintenance: true })).toEqual(['f-a']);
    expect(await names({ maintenance: false })).toEqual(['f-b', 'f-c']);
    expect(await names({ fault: 'power failure' })).toEqual(['f-a']);
    expect(await names({ associated: true })).toEqual(['f-a']);
    expect(await names({ associated: false })).toEqual(['f-b', 'f-c']);
    expect(await names({ instance_uuid: a.instance_uuid! })).toEqual(['f-a']);
    expect(await names({ chassis_id: ch.id })).toEqual(['f-a']);
    expect(await names({ shard: ['s1', 's2'] })).toEqual(['f-a', 'f-b']);
    expect(await names({ shard: [] })).toEqual([]);
    expect(await names({ sharded: true })).toEqual(['f-a', 'f-b']);
    expect(await names({ sharded: false })).toEqual(['f-c']);
    expect(await names({ parent_node: 'p1' })).toEqual(['f-a']);
    expect(await names({ description_contains: 'big 100%' })).toEqual(['f-a']);
    expect(await names({ description_contains: '0_' })).toEqual([]);
    expect(await names({ retired: true })).toEqual(['f-a']);
    expect(await names({ reservation: 'host-x' })).toEqual(['f-c']);
    expect(await names({ provision_states: ['active', 'available'] })).toEqual(['f-a', 'f-b']);
    expect(await names({ provision_states: [] })).toEqual([]);
    expect(await names({ driver: 'ipmi', provision_state: 'active' })).toEqual(['f-b']);
    expect(await store.nodes.count({ driver: 'ipmi' })).toBe(2);
    expect(b.shard).toBe('s2');
  });

  it('sorts and pages with markers, NULLs first ascending', async () => {
    const created = [];
    for (const [name, rc] of [['p1', 'b'], ['p2', null], ['p3', 'a'], ['p4', 'b'], ['p5', null], ['p6', 'c']] as const) {
      created.push(await store.nodes.create({ driver: 'fake-hardware', name, resource_class: rc }));
    }
    const all = async (sortKey: string | undefined, sortDir: 'asc' | 'desc' | undefined, limit: number) => {
      const out: string[] = [];
      let marker: string | undefined;
      for (;;) {
        const page = await store.nodes.list({}, { limit, marker, sortKey, sortDir });
        out.push(...page.map((n) => n.name!));
        if (page.length < limit) return out;
        marker = page[page.length - 1]!.uuid;
      }
    };
    expect(await all(undefined, undefined, 4)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    expect(await all(undefined, 'desc', 4)).toEqual(['p6', 'p5', 'p4', 'p3', 'p2', 'p1']);
    const byRc = ['p2', 'p5', 'p3', 'p1', 'p4', 'p6'];
    for (const limit of [1, 2, 4, 10]) {
      expect(await all('resource_class', 'asc', limit)).toEqual(byRc);
      expect(await all('resource_class', 'desc', limit)).toEqual([...byRc].reverse());
    }
    expect(await all('name', 'desc', 5)).toEqual(['p6', 'p5', 'p4', 'p3', 'p2', 'p1']);
    expect(await codeOf(store.nodes.list({}, { limit: 5, sortKey: 'driver_info' }))).toEqual({
      code: 'InvalidParameterValue',
      message: 'The sort_key value "driver_info" is an invalid field for sorting',
    });
    expect((await codeOf(store.nodes.list({}, { limit: 5, sortKey: 'x; drop table nodes' }))).code).toBe('InvalidParameterValue');
    expect((await codeOf(store.nodes.list({}, { limit: 5, marker: newUuid() }))).code).toBe('NodeNotFound');
    expect(created).toHaveLength(6);
  });

  it('stores disable_power_off as a boolean (false by default), updates it and sorts and pages by it', async () => {
    const plain = await store.nodes.create({ driver: 'fake-hardware', name: 'dpo-0' });
    expect(plain.disable_power_off).toBe(false);
    const on = await store.nodes.create({ driver: 'fake-hardware', name: 'dpo-1', disable_power_off: true });
    expect(on.disable_power_off).toBe(true);
    expect(await store.nodes.get('dpo-1')).toEqual(on);
    expect((await store.nodes.getMany([on.id, plain.id])).map((n) => [n.name, n.disable_power_off])).toEqual([['dpo-0', false], ['dpo-1', true]]);
    const off = await store.nodes.update(on.uuid, { disable_power_off: false });
    expect(off).toMatchObject({ disable_power_off: false, version: on.version + 1 });
    await store.nodes.update(plain.uuid, { disable_power_off: true });
    await store.nodes.create({ driver: 'fake-hardware', name: 'dpo-2', disable_power_off: true });
    const order: string[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await store.nodes.list({}, { limit: 1, marker, sortKey: 'disable_power_off', sortDir: 'desc' });
      if (page.length === 0) break;
      order.push(page[0]!.name!);
      marker = page[0]!.uuid;
    }
    expect(order).toEqual(['dpo-2', 'dpo-0', 'dpo-1']);
  });

  it('takes the lock with a conditional update: exactly one of two racers wins', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware', name: 'race' });
    const results = await Promise.allSettled([store.nodes.reserve(n.uuid, 'host-a'), store.nodes.reserve('race', 'host-b')]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const holder = (won[0] as PromiseFulfilledResult<{ reservation: string }>).value.reservation;
    expect(['host-a', 'host-b']).toContain(holder);
    expect(lost[0]!.reason).toBeInstanceOf(IngotError);
    expect(lost[0]!.reason.code).toBe('NodeLocked');
    expect(lost[0]!.reason.message).toBe(
      `Node ${n.uuid} is locked by host ${holder}, please retry after the current operation is completed.`,
    );
    expect((await store.nodes.get(n.uuid)).reservation).toBe(holder);
    // The holder may write under its lock; others may not.
    const other = holder === 'host-a' ? 'host-b' : 'host-a';
    expect((await codeOf(store.nodes.update(n.uuid, { power_state: 'power on' }, { reservation: other }))).code).toBe('NodeLocked');
    expect((await store.nodes.update(n.uuid, { power_state: 'power on' }, { reservation: holder })).power_state).toBe('power on');
    expect(await store.nodes.release(n.uuid, other)).toBe(false);
    expect(await store.nodes.release(n.uuid, holder)).toBe(true);
    expect((await store.nodes.get(n.uuid)).reservation).toBeNull();
    expect((await codeOf(store.nodes.update(n.uuid, { power_state: 'power off' }, { reservation: holder }))).code).toBe('NodeLocked');
  });

  it('many concurrent reservers: one winner', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware' });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.nodes.reserve(n.uuid, `h${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('releaseAll frees only the locks of that host', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map((i) => store.nodes.create({ driver: 'fake-hardware', name: `r${i}` })));
    await store.nodes.reserve(a!.uuid, 'dead');
    await store.nodes.reserve(b!.uuid, 'dead');
    await store.nodes.reserve(c!.uuid, 'alive');
    expect((await store.nodes.releaseAll('dead')).sort()).toEqual([a!.uuid, b!.uuid].sort());
    expect((await store.nodes.get(a!.uuid)).reservation).toBeNull();
    expect((await store.nodes.get(c!.uuid)).reservation).toBe('alive');
    expect(await store.nodes.releaseAll('dead')).toEqual([]);
  });

  it('stores traits on the node', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware' });
    await store.nodes.setTraits(n.id, ['CUSTOM_A', 'HW_CPU_X86_VMX']);
    expect((await store.nodes.get(n.uuid)).traits).toEqual(['CUSTOM_A', 'HW_CPU_X86_VMX']);
    expect((await codeOf(store.nodes.setTraits(999999, []))).code).toBe('NodeNotFound');
  });

  it('lists a full page of 1000 nodes with every column decoded', async () => {
    const props = { cpus: 8, memory_mb: 16384, local_gb: 100, cpu_arch: 'x86_64' };
    for (let i = 0; i < 1000; i++) {
      await store.nodes.create({ driver: 'fake-hardware', name: `bulk-${i}`, properties: props, driver_info: { a: 'b' }, extra: { i } });
    }
    // Speed is measured by `npm run bench`, not here.
    const rows = await store.nodes.list({}, { limit: 1000 });
    expect(rows).toHaveLength(1000);
    expect(rows[999]).toMatchObject({ name: 'bulk-999', properties: props, driver_info: { a: 'b' }, extra: { i: 999 }, maintenance: false, traits: [] });
  });
});
