import { describe, expect, it } from 'vitest';
import { useTestApi, faultString, version } from '../app.test-support.js';

const t = useTestApi();

describe('GET /v1/nodes/{node}/inventory (1.81)', () => {
  it('answers the stored inventory and plugin data, 404 before an inspection and below 1.81', async () => {
    const node = await t.store.nodes.create({ driver: 'fake-hardware', name: 'inv' });
    const missing = await t.app.inject({ url: '/v1/nodes/inv/inventory', headers: version('1.81') });
    expect(missing.statusCode).toBe(404);
    expect(faultString(missing.body)).toBe(`Node inventory for node ${node.uuid} could not be found.`);
    expect(missing.headers['x-ingot-error-code']).toBe('InventoryNotFound');
    await t.store.inventories.put(node.id, { cpu: { count: 2 } }, { root_disk: { name: '/dev/vda' } });
    const res = await t.app.inject({ url: '/v1/nodes/inv/inventory', headers: version('1.81') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inventory: { cpu: { count: 2 } }, plugin_data: { root_disk: { name: '/dev/vda' } } });
    expect((await t.app.inject({ url: '/v1/nodes/inv/inventory', headers: version('1.80') })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v1/nodes/nope/inventory', headers: version('1.81') })).statusCode).toBe(404);
  });
});
