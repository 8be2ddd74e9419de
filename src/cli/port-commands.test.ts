import { describe, expect, it } from 'vitest';
import { envelope, runIngot, fakeIronicPerTest } from './fake-ironic.test-support.js';

const serve = fakeIronicPerTest();

const NODE_UUID = '22222222-2222-4222-8222-222222222222';
const PORT_UUID = '33333333-3333-4333-8333-333333333333';

describe('ingot port', () => {
  it('create resolves a node name to its UUID and POSTs the port', async () => {
    const s = await serve((req) =>
      req.method === 'GET'
        ? { body: { uuid: NODE_UUID } }
        : { status: 201, body: { uuid: PORT_UUID, ...(req.body as object), links: [] } },
    );
    const r = await runIngot(
      ['port', 'create', '52:54:00:12:34:56', '--node', 'node-1', '--pxe-enabled', 'false', '--physical-network', 'physnet1',
        '--local-link-connection', 'switch_id=aa:bb:cc:dd:ee:ff', '--local-link-connection', 'port_id=Eth1/1', '--extra', 'slot=2', '-f', 'json'],
      { INGOT_URL: s.url },
    );
    expect(r.stderr).toBe('');
    expect(s.requests.map((q) => [q.method, q.path, q.query])).toEqual([
      ['GET', '/v1/nodes/node-1', { fields: 'uuid' }],
      ['POST', '/v1/ports', {}],
    ]);
    expect(s.requests[1]!.body).toEqual({
      address: '52:54:00:12:34:56',
      node_uuid: NODE_UUID,
      pxe_enabled: false,
      physical_network: 'physnet1',
      extra: { slot: '2' },
      local_link_connection: { switch_id: 'aa:bb:cc:dd:ee:ff', port_id: 'Eth1/1' },
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ uuid: PORT_UUID, node_uuid: NODE_UUID });
  });

  it('create with a node UUID sends it as is; a duplicate MAC shows the 409', async () => {
    const s = await serve(() => ({ status: 409, body: envelope('A port with MAC address 52:54:00:12:34:56 already exists.') }));
    const r = await runIngot(['port', 'create', '52:54:00:12:34:56', '--node', NODE_UUID], { INGOT_URL: s.url });
    expect(s.requests.map((q) => q.method)).toEqual(['POST']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('ingot: A port with MAC address 52:54:00:12:34:56 already exists. (HTTP 409)\n');
  });

  it('lists by node and shows by UUID or address', async () => {
    const port = { uuid: PORT_UUID, address: '52:54:00:12:34:56', node_uuid: NODE_UUID, pxe_enabled: true, links: [] };
    const s = await serve((req) => (req.path === '/v1/ports' ? { body: { ports: [port] } } : { body: port }));
    const list = await runIngot(['port', 'list', '--node', 'node-1'], { INGOT_URL: s.url });
    expect(list.stdout).toBe(
      [
        '+--------------------------------------+-------------------+',
        '| UUID                                 | Address           |',
        '+--------------------------------------+-------------------+',
        `| ${PORT_UUID} | 52:54:00:12:34:56 |`,
        '+--------------------------------------+-------------------+',
        '',
      ].join('\n'),
    );
    const long = await runIngot(['port', 'list', '--long', '-f', 'value', '--address', '52:54:00:12:34:56'], { INGOT_URL: s.url });
    expect(long.stdout).toBe(`${PORT_UUID} 52:54:00:12:34:56 ${NODE_UUID} None True None None None None None\n`);
    const byAddr = await runIngot(['port', 'show', '52:54:00:12:34:56', '--address', '-f', 'value', '--fields', 'uuid'], { INGOT_URL: s.url });
    expect(byAddr.stdout).toBe(`${PORT_UUID}\n`);
    await runIngot(['port', 'show', PORT_UUID], { INGOT_URL: s.url });
    expect(s.requests.map((q) => [q.path, q.query])).toEqual([
      ['/v1/ports', { node: 'node-1' }],
      ['/v1/ports', { address: '52:54:00:12:34:56', detail: 'true' }],
      ['/v1/ports', { address: '52:54:00:12:34:56', detail: 'true' }],
      [`/v1/ports/${PORT_UUID}`, {}],
    ]);
  });

  it('show --address of an unknown MAC is a 404', async () => {
    const s = await serve(() => ({ body: { ports: [] } }));
    const r = await runIngot(['port', 'show', 'aa:aa:aa:aa:aa:aa', '--address'], { INGOT_URL: s.url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('ingot: Port with address aa:aa:aa:aa:aa:aa could not be found. (HTTP 404)\n');
  });

  it('set and unset send JSON Patch; delete removes each port', async () => {
    const s = await serve((req) => (req.method === 'GET' ? { body: { uuid: NODE_UUID } } : req.method === 'DELETE' ? { status: 204 } : { body: {} }));
    await runIngot(['port', 'set', PORT_UUID, '--pxe-disabled', '--node', 'node-2', '--extra', 'k=v', '--local-link-connection', 'port_id=p2'], { INGOT_URL: s.url });
    await runIngot(['port', 'unset', PORT_UUID, '--physical-network', '--extra', 'k'], { INGOT_URL: s.url });
    const del = await runIngot(['port', 'delete', PORT_UUID, 'other'], { INGOT_URL: s.url });
    expect(s.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['GET', '/v1/nodes/node-2', undefined],
      ['PATCH', `/v1/ports/${PORT_UUID}`, [
        { op: 'add', path: '/node_uuid', value: NODE_UUID },
        { op: 'add', path: '/pxe_enabled', value: false },
        { op: 'add', path: '/extra/k', value: 'v' },
        { op: 'add', path: '/local_link_connection/port_id', value: 'p2' },
      ]],
      ['PATCH', `/v1/ports/${PORT_UUID}`, [
        { op: 'remove', path: '/physical_network' },
        { op: 'remove', path: '/extra/k' },
      ]],
      ['DELETE', `/v1/ports/${PORT_UUID}`, undefined],
      ['DELETE', '/v1/ports/other', undefined],
    ]);
    expect(del.stdout).toBe(`Deleted port ${PORT_UUID}\nDeleted port other\n`);
    expect(del.exitCode).toBe(0);
  });
});
