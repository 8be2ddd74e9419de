import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestStore } from '../../test/support/stores.js';
import { codeOf } from './error-code.test-support.js';

describe.each(DIALECTS)('inspection data on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('stores, replaces and reads back a node’s inventory and plugin data; deleting the node deletes it', async () => {
    const node = await store.nodes.create({ driver: 'fake-hardware', name: `inv-${dialect}` });
    expect(await store.inventories.get(node.id)).toBeNull();
    const inventory = { cpu: { count: 4, architecture: 'x86_64' }, interfaces: [{ name: 'eth0', mac_address: '52:54:00:00:00:01' }] };
    await store.inventories.put(node.id, inventory, { root_disk: { name: '/dev/sda' } });
    const first = await store.inventories.get(node.id);
    expect(first).toMatchObject({ inventory, plugin_data: { root_disk: { name: '/dev/sda' } }, updated_at: null });
    await store.inventories.put(node.id, { cpu: { count: 8 } }, {});
    const second = await store.inventories.get(node.id);
    expect(second).toMatchObject({ inventory: { cpu: { count: 8 } }, plugin_data: {}, created_at: first?.created_at });
    expect(second?.updated_at).not.toBeNull();
    await store.nodes.delete(node.uuid);
    expect(await store.inventories.get(node.id)).toBeNull();
  });

  it('refuses data for a node that does not exist', async () => {
    expect((await codeOf(store.inventories.put(987_654, {}, {}))).code).toBe('NodeNotFound');
  });
});
