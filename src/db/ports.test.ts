import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestStore, type TestStore } from '../../test/support/stores.js';
import type { Node } from '../domain/node.js';
import { newUuid } from '../shared/ids.js';
import { codeOf } from './error-code.test-support.js';

describe.each(DIALECTS)('ports and portgroups on %s', (dialect) => {
  let store: TestStore;
  let node: Node;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    node = await store.nodes.create({ driver: 'fake-hardware', name: 'pnode' });
  });
  afterAll(async () => {
    await store?.destroy();
  });

  it('port CRUD with lower-case MAC and unique address', async () => {
    const p = await store.ports.create({ address: 'AA:BB:CC:DD:EE:01', node_id: node.id, local_link_connection: { switch_id: 'x' } });
    expect(p.address).toBe('aa:bb:cc:dd:ee:01');
    expect(p.pxe_enabled).toBe(true);
    expect(p.is_smartnic).toBe(false);
    expect(p.portgroup_id).toBeNull();
    expect(p.local_link_connection).toEqual({ switch_id: 'x' });
    expect(await store.ports.get(p.uuid)).toEqual(p);
    expect(await codeOf(store.ports.create({ address: 'aa:bb:cc:dd:ee:01', node_id: node.id }))).toEqual({
      code: 'MACAlreadyExists',
      message: 'A port with MAC address aa:bb:cc:dd:ee:01 already exists.',
    });
    expect((await codeOf(store.ports.create({ address: 'AA:BB:CC:DD:EE:01', node_id: node.id }))).code).toBe('MACAlreadyExists');
    const q = await store.ports.create({ address: 'aa:bb:cc:dd:ee:02', node_id: node.id, name: 'eth1' });
    expect(await store.ports.get('eth1')).toEqual(q);
    expect((await codeOf(store.ports.update(q.uuid, { address: 'AA:bb:cc:dd:ee:01' }))).code).toBe('MACAlreadyExists');
    const u = await store.ports.update(q.uuid, { pxe_enabled: false, extra: { k: 'v' } });
    expect(u.pxe_enabled).toBe(false);
    expect(u.extra).toEqual({ k: 'v' });
    expect(u.updated_at).not.toBeNull();
    expect((await store.ports.list({ address: 'AA:BB:CC:DD:EE:02' }, { limit: 10 })).map((x) => x.uuid)).toEqual([q.uuid]);
    expect((await store.ports.list({ node_id: node.id }, { limit: 10 })).map((x) => x.uuid)).toEqual([p.uuid, q.uuid]);
    expect((await store.ports.list({ node_id: node.id }, { limit: 10, sortDir: 'desc' })).map((x) => x.uuid)).toEqual([q.uuid, p.uuid]);
    expect((await store.ports.list({}, { limit: 1, marker: p.uuid })).map((x) => x.uuid)).toEqual([q.uuid]);
    expect((await codeOf(store.ports.list({}, { limit: 1, marker: newUuid() }))).code).toBe('PortNotFound');
    expect((await codeOf(store.ports.list({}, { limit: 1, sortKey: 'extra' }))).code).toBe('InvalidParameterValue');
    await store.ports.delete(p.uuid);
    await store.ports.delete(q.uuid);
    expect(await codeOf(store.ports.get(p.uuid))).toEqual({ code: 'PortNotFound', message: `Port ${p.uuid} could not be found.` });
    expect((await codeOf(store.ports.delete(p.uuid))).code).toBe('PortNotFound');
    expect((await codeOf(store.ports.update(p.uuid, { extra: {} }))).code).toBe('PortNotFound');
  });

  it('port names: unique when set, any number unset, found by name, freed by a rename', async () => {
    const a = await store.ports.create({ address: 'aa:bb:cc:dd:e0:01', node_id: node.id, name: 'nic-a' });
    const b = await store.ports.create({ address: 'aa:bb:cc:dd:e0:02', node_id: node.id });
    const c = await store.ports.create({ address: 'aa:bb:cc:dd:e0:03', node_id: node.id, name: null });
    expect([a.name, b.name, c.name]).toEqual(['nic-a', null, null]);
    expect((await store.ports.get('nic-a')).uuid).toBe(a.uuid);
    expect(await codeOf(store.ports.create({ address: 'aa:bb:cc:dd:e0:04', node_id: node.id, name: 'nic-a' }))).toEqual({
      code: 'DuplicateName',
      message: 'A port with name nic-a already exists.',
    });
    expect(await codeOf(store.ports.update(b.uuid, { name: 'nic-a' }))).toEqual({ code: 'DuplicateName', message: 'A port with name nic-a already exists.' });
    expect((await store.ports.update(a.uuid, { name: 'nic-a2' })).name).toBe('nic-a2');
    expect((await codeOf(store.ports.get('nic-a'))).code).toBe('PortNotFound');
    expect((await store.ports.update(b.uuid, { name: 'nic-a' })).name).toBe('nic-a');
    expect((await store.ports.update(b.uuid, { name: null })).name).toBeNull();
    for (const p of [a, b, c]) await store.ports.delete(p.uuid);
  });

  it('rejects a port of a missing node', async () => {
    expect((await codeOf(store.ports.create({ address: 'aa:bb:cc:dd:ee:99', node_id: 424242 }))).code).toBe('InvalidParameterValue');
  });

  it('portgroup CRUD; a group with ports cannot be deleted', async () => {
    const g = await store.portgroups.create({ node_id: node.id, name: 'bond0', address: 'AA:00:00:00:00:01', mode: '802.3ad' });
    expect(g.address).toBe('aa:00:00:00:00:01');
    expect(g.standalone_ports_supported).toBe(true);
    expect(g.properties).toEqual({});
    expect(await store.portgroups.get('bond0')).toEqual(g);
    expect(await store.portgroups.get(g.uuid)).toEqual(g);
    expect((await codeOf(store.portgroups.create({ node_id: node.id, name: 'bond0' }))).code).toBe('PortgroupAlreadyExists');
    expect((await codeOf(store.portgroups.create({ node_id: node.id, address: 'aa:00:00:00:00:01' }))).code).toBe('PortgroupAlreadyExists');
    const p = await store.ports.create({ address: 'aa:00:00:00:00:02', node_id: node.id, portgroup_id: g.id });
    expect((await store.ports.list({ portgroup_id: g.id }, { limit: 10 })).map((x) => x.uuid)).toEqual([p.uuid]);
    expect(await codeOf(store.portgroups.delete(g.uuid))).toMatchObject({ code: 'PortgroupNotEmpty' });
    const u = await store.portgroups.update(g.uuid, { mode: 'active-backup', properties: { miimon: 100 } });
    expect(u.mode).toBe('active-backup');
    expect(u.properties).toEqual({ miimon: 100 });
    expect((await store.portgroups.list({ node_id: node.id }, { limit: 10 })).map((x) => x.uuid)).toEqual([g.uuid]);
    expect((await store.portgroups.list({ address: 'AA:00:00:00:00:01' }, { limit: 10 })).map((x) => x.uuid)).toEqual([g.uuid]);
    await store.ports.update(p.uuid, { portgroup_id: null });
    await store.portgroups.delete(g.uuid);
    expect(await codeOf(store.portgroups.get(g.uuid))).toEqual({ code: 'PortgroupNotFound', message: `Portgroup ${g.uuid} could not be found.` });
    expect((await codeOf(store.portgroups.delete(g.uuid))).code).toBe('PortgroupNotFound');
    await store.ports.delete(p.uuid);
  });

  it('deleting a node removes its ports, portgroups and history', async () => {
    const n = await store.nodes.create({ driver: 'fake-hardware', name: 'doomed' });
    const g = await store.portgroups.create({ node_id: n.id, name: 'doomed-bond' });
    const p = await store.ports.create({ address: 'aa:00:00:00:00:10', node_id: n.id, portgroup_id: g.id });
    await store.history.record({ node_id: n.id, severity: 'INFO', event_type: 'provisioning', event: 'x', conductor: null, user: null, duration_ms: null });
    await store.nodes.delete(n.uuid);
    expect((await codeOf(store.ports.get(p.uuid))).code).toBe('PortNotFound');
    expect((await codeOf(store.portgroups.get(g.uuid))).code).toBe('PortgroupNotFound');
    expect(await store.history.list(n.id, { limit: 10 })).toEqual([]);
    // The MAC is free again.
    expect((await store.ports.create({ address: 'aa:00:00:00:00:10', node_id: node.id })).address).toBe('aa:00:00:00:00:10');
  });
});
