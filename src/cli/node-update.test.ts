import { afterEach, describe, expect, it } from 'vitest';
import { envelope, runIngot, startFakeIronic } from './fake-ironic.test-support.js';
import type { FakeIronic } from './fake-ironic.test-support.js';

let server: FakeIronic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ingot node set / unset', () => {
  it('sends one JSON Patch with add ops for fields, dict entries and interfaces', async () => {
    server = await startFakeIronic(() => ({ body: { uuid: 'u' } }));
    const r = await runIngot(
      [
        'node', 'set', 'n1', '--name', 'n2', '--description', 'rack 4', '--protected', '--automated-clean', 'true',
        '--driver-info', 'redfish_address=https://10.0.0.9', '--property', 'root_device={"size": 100}',
        '--extra', 'a/b=1', '--instance-info', 'image_source=http://img/x.qcow2',
        '--boot-interface', 'ipxe', '--reset-power-interface', '--target-raid-config', '{"logical_disks":[]}',
      ],
      { INGOT_URL: server.url },
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    const [req] = server.requests;
    expect(req?.method).toBe('PATCH');
    expect(req?.path).toBe('/v1/nodes/n1');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.body).toEqual([
      { op: 'add', path: '/name', value: 'n2' },
      { op: 'add', path: '/description', value: 'rack 4' },
      { op: 'add', path: '/protected', value: true },
      { op: 'add', path: '/automated_clean', value: true },
      { op: 'add', path: '/target_raid_config', value: { logical_disks: [] } },
      { op: 'add', path: '/boot_interface', value: 'ipxe' },
      { op: 'remove', path: '/power_interface' },
      { op: 'add', path: '/driver_info/redfish_address', value: 'https://10.0.0.9' },
      { op: 'add', path: '/properties/root_device', value: { size: 100 } },
      { op: 'add', path: '/extra/a~1b', value: '1' },
      { op: 'add', path: '/instance_info/image_source', value: 'http://img/x.qcow2' },
    ]);
  });

  it('unset sends remove ops, one per key', async () => {
    server = await startFakeIronic(() => ({ body: { uuid: 'u' } }));
    const r = await runIngot(
      ['node', 'unset', 'n1', '--name', '--owner', '--driver-info', 'ipmi_password', '--property', 'cpus', '--property', 'memory_mb', '--deploy-interface'],
      { INGOT_URL: server.url },
    );
    expect(r.exitCode).toBe(0);
    expect(server.requests[0]?.body).toEqual([
      { op: 'remove', path: '/name' },
      { op: 'remove', path: '/owner' },
      { op: 'remove', path: '/deploy_interface' },
      { op: 'remove', path: '/driver_info/ipmi_password' },
      { op: 'remove', path: '/properties/cpus' },
      { op: 'remove', path: '/properties/memory_mb' },
    ]);
  });

  it('refuses an empty update and malformed values without calling the API', async () => {
    server = await startFakeIronic(() => ({ body: {} }));
    const empty = await runIngot(['node', 'set', 'n1'], { INGOT_URL: server.url });
    expect(empty.exitCode).toBe(1);
    expect(empty.stderr).toBe('ingot: nothing to set: pass at least one option (see --help)\n');
    const bad = await runIngot(['node', 'set', 'n1', '--property', 'novalue'], { INGOT_URL: server.url });
    expect(bad.stderr).toBe("ingot: --property expects key=value, got 'novalue'\n");
    const badJson = await runIngot(['node', 'set', 'n1', '--network-data', '{oops'], { INGOT_URL: server.url });
    expect(badJson.stderr).toMatch(/^ingot: --network-data: not valid JSON/);
    expect(server.requests).toHaveLength(0);
  });

  it('shows the server’s rejection of a patch', async () => {
    server = await startFakeIronic(() => ({
      status: 400,
      body: envelope("Node n1 can not be updated while a state transition is in progress.\nTry later."),
    }));
    const r = await runIngot(['node', 'set', 'n1', '--driver', 'ipmi'], { INGOT_URL: server.url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('ingot: Node n1 can not be updated while a state transition is in progress. Try later. (HTTP 400)\n');
  });
});
