import { describe, expect, it } from 'vitest';
import { envelope, fakeIronicPerTest, runIngot, startFakeIronic } from './fake-ironic.test-support.js';

const serve = fakeIronicPerTest();

const UUID1 = '11111111-1111-4111-8111-111111111111';

function node(i: number, extra: Record<string, unknown> = {}) {
  return {
    uuid: `0000000${i}-0000-4000-8000-00000000000${i}`,
    name: `node-${i}`,
    instance_uuid: null,
    power_state: 'power off',
    provision_state: 'enroll',
    maintenance: false,
    links: [{ href: 'x', rel: 'self' }],
    ...extra,
  };
}

describe('ingot node create', () => {
  it('POSTs the node with the version header, k=v values as strings (JSON for {…}), and prints it', async () => {
    const s = await serve((req) => ({ status: 201, body: { ...(req.body as object), uuid: UUID1, provision_state: 'enroll', links: [] } }));
    const r = await runIngot(
      [
        'node', 'create', '--driver', 'fake-hardware', '--name', 'n1',
        '--driver-info', 'ipmi_port=623', '--driver-info', 'ipmi_address=10.0.0.1',
        '--property', 'cpus=8', '--property', 'capabilities={"boot_mode":"uefi"}',
        '--extra', 'rack=', '--resource-class', 'baremetal', '--deploy-interface', 'fake',
        '--automated-clean', 'false',
      ],
      { INGOT_URL: s.url },
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(s.requests).toHaveLength(1);
    const req = s.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/nodes');
    expect(req.headers['x-openstack-ironic-api-version']).toBe('latest');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      driver: 'fake-hardware',
      name: 'n1',
      driver_info: { ipmi_port: '623', ipmi_address: '10.0.0.1' },
      properties: { cpus: '8', capabilities: { boot_mode: 'uefi' } },
      extra: { rack: '' },
      resource_class: 'baremetal',
      deploy_interface: 'fake',
      automated_clean: false,
    });
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^\| Field {12}\| Value +\|$/);
    expect(lines).toContain('| driver_info      | {"ipmi_port": "623", "ipmi_address": "10.0.0.1"}     |');
    expect(lines).toContain('| properties       | {"cpus": "8", "capabilities": {"boot_mode": "uefi"}} |');
    expect(lines).toContain(`| uuid             | ${UUID1}                 |`);
    expect(r.stdout).not.toContain('links');
  });

  it('fails with a usage error when --driver is missing, sending nothing', async () => {
    const s = await serve(() => ({ status: 500 }));
    const r = await runIngot(['node', 'create', '--name', 'x'], { INGOT_URL: s.url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("required option '--driver <driver>' not specified");
    expect(s.requests).toHaveLength(0);
  });
});

describe('ingot node list', () => {
  it('follows next links (rebased on the endpoint) and renders one aligned table', async () => {
    const all = [node(1), node(2, { provision_state: 'available', maintenance: true }), node(3, { name: null }), node(4)];
    const s = await serve((req) => {
      const marker = req.query['marker'];
      const start = marker ? all.findIndex((n) => n.uuid === marker) + 1 : 0;
      const page = all.slice(start, start + 2);
      const body: Record<string, unknown> = { nodes: page };
      // A server behind a proxy advertises another host; the client must keep talking to its endpoint.
      if (page.length === 2) body['next'] = `http://ironic.invalid:6385/v1/nodes?limit=2&marker=${page[1]!.uuid}`;
      return { body };
    });
    const r = await runIngot(['node', 'list', '--provision-state', 'enroll', '--no-maintenance', '--unassociated'], { INGOT_URL: s.url });
    expect(r.stderr).toBe('');
    expect(s.requests.map((q) => [q.path, q.query])).toEqual([
      ['/v1/nodes', { provision_state: 'enroll', maintenance: 'false', associated: 'false' }],
      ['/v1/nodes', { limit: '2', marker: all[1]!.uuid }],
      ['/v1/nodes', { limit: '2', marker: all[3]!.uuid }],
    ]);
    expect(r.stdout).toBe(
      [
        '+--------------------------------------+--------+---------------+-------------+--------------------+-------------+',
        '| UUID                                 | Name   | Instance UUID | Power State | Provisioning State | Maintenance |',
        '+--------------------------------------+--------+---------------+-------------+--------------------+-------------+',
        '| 00000001-0000-4000-8000-000000000001 | node-1 | None          | power off   | enroll             | False       |',
        '| 00000002-0000-4000-8000-000000000002 | node-2 | None          | power off   | available          | True        |',
        '| 00000003-0000-4000-8000-000000000003 | None   | None          | power off   | enroll             | False       |',
        '| 00000004-0000-4000-8000-000000000004 | node-4 | None          | power off   | enroll             | False       |',
        '+--------------------------------------+--------+---------------+-------------+--------------------+-------------+',
        '',
      ].join('\n'),
    );
  });

  it('with --limit reads one page; --fields, --sort and -f json shape the request and output', async () => {
    const s = await serve(() => ({ body: { nodes: [{ uuid: UUID1, driver: 'fake-hardware' }], next: 'http://x/v1/nodes?marker=a' } }));
    const r = await runIngot(
      ['node', 'list', '--limit', '1', '--fields', 'uuid,driver', '--sort', 'created_at:desc', '--driver', 'fake-hardware', '-f', 'json'],
      { INGOT_URL: s.url },
    );
    expect(r.stderr).toBe('');
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.query).toEqual({ driver: 'fake-hardware', limit: '1', sort_key: 'created_at', sort_dir: 'desc', fields: 'uuid,driver' });
    expect(JSON.parse(r.stdout)).toEqual([{ uuid: UUID1, driver: 'fake-hardware' }]);
  });

  it('--long asks for detail and -f value prints bare rows', async () => {
    const s = await serve(() => ({ body: { nodes: [node(1, { driver: 'fake-hardware' })] } }));
    const r = await runIngot(['node', 'list', '--long', '-f', 'value', '--fields', 'name,driver'], { INGOT_URL: s.url });
    expect(s.requests[0]!.query).toEqual({ fields: 'name,driver' });
    expect(r.stdout).toBe('node-1 fake-hardware\n');
    const s2 = await startFakeIronic(() => ({ body: { nodes: [node(1, { driver: 'fake-hardware', last_error: 'boom\nagain' })] } }));
    try {
      const r2 = await runIngot(['node', 'list', '--long'], { INGOT_URL: s2.url });
      expect(s2.requests[0]!.query).toEqual({ detail: 'true' });
      expect(r2.stdout).toContain('| Last Error |');
      expect(r2.stdout).toContain('| boom again |');
    } finally {
      await s2.close();
    }
  });
});

describe('ingot node show / delete and errors', () => {
  it('shows a node by name as a sorted field/value table, or selected fields', async () => {
    const s = await serve(() => ({ body: { uuid: UUID1, name: 'n1', provision_state: 'manageable', ports: [{ href: 'p', rel: 'self' }], extra: {} } }));
    const r = await runIngot(['node', 'show', 'n1'], { INGOT_URL: s.url });
    expect(s.requests[0]!.path).toBe('/v1/nodes/n1');
    expect(r.stdout).toBe(
      [
        '+-----------------+--------------------------------------+',
        '| Field           | Value                                |',
        '+-----------------+--------------------------------------+',
        '| extra           | {}                                   |',
        '| name            | n1                                   |',
        '| provision_state | manageable                           |',
        `| uuid            | ${UUID1} |`,
        '+-----------------+--------------------------------------+',
        '',
      ].join('\n'),
    );
    const r2 = await runIngot(['node', 'show', 'n1', '--fields', 'provision_state,name', '-f', 'value'], { INGOT_URL: s.url });
    expect(s.requests[1]!.query).toEqual({ fields: 'provision_state,name' });
    expect(r2.stdout).toBe('manageable\nn1\n');
  });

  it('renders the error envelope as one line with the HTTP status and exit code 1', async () => {
    const s = await serve(() => ({ status: 404, body: envelope('Node missing could not be found.') }));
    const r = await runIngot(['node', 'show', 'missing'], { INGOT_URL: s.url });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('ingot: Node missing could not be found. (HTTP 404)\n');
  });

  it('deletes every node, reports each failure and exits 1 when any failed', async () => {
    const s = await serve((req) =>
      req.path.endsWith('/busy') ? { status: 409, body: envelope('Node busy is locked by host c1, please retry after the current operation is completed.') } : { status: 204 },
    );
    const r = await runIngot(['node', 'delete', 'a', 'busy', 'b'], { INGOT_URL: s.url });
    expect(s.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['DELETE /v1/nodes/a', 'DELETE /v1/nodes/busy', 'DELETE /v1/nodes/b']);
    expect(r.stdout).toBe('Deleted node a\nDeleted node b\n');
    expect(r.stderr).toBe(
      'ingot: failed to delete node busy: Node busy is locked by host c1, please retry after the current operation is completed. (HTTP 409)\n' +
        'ingot: 1 of 3 nodes could not be deleted\n',
    );
    expect(r.exitCode).toBe(1);
  });

  it('uses OS_ENDPOINT (a trailing /v1 is dropped), --url over env, and the requested microversion', async () => {
    const s = await serve(() => ({ body: { uuid: UUID1 } }));
    await runIngot(['node', 'show', 'x'], { OS_ENDPOINT: `${s.url}/v1/`, OS_BAREMETAL_API_VERSION: '1.82' });
    await runIngot(['node', 'show', 'y', '--url', s.url, '--os-baremetal-api-version', '1.78'], { INGOT_URL: 'http://127.0.0.1:9' });
    expect(s.requests.map((q) => [q.path, q.headers['x-openstack-ironic-api-version']])).toEqual([
      ['/v1/nodes/x', '1.82'],
      ['/v1/nodes/y', '1.78'],
    ]);
  });

  it('reports an unreachable endpoint in one line', async () => {
    const s = await serve(() => ({}));
    const url = s.url;
    await s.close();
    const r = await runIngot(['node', 'list'], { INGOT_URL: url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^ingot: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);
  });
});
