/**
 * Compatibility with Debian's `baremetal` CLI (python3-ironicclient 5.0.1 + python3-openstackclient 6.0):
 * fake-hardware nodes through their lifecycle, power, ports, JSON Patch, name lookups and the error
 * cases. Every expectation is what the real Ironic 21.4 printed for the same commands (docs/compat.md).
 * Each 409 costs ~10 s: the client retries every conflict 5 times, 2 s apart, as it does against Ironic.
 */
import { describe, expect, it } from 'vitest';
import { baremetal, baremetalJson, baremetalOk, errorLine, randomMac, targetDialects, uniqueName, useTarget } from '../support/openstack-clients.js';
import { waitNode, type NodeView } from '../support/http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;


/** Reads a node over plain HTTP (cheaper than a CLI run, for polling). */
async function getNode(url: string, ident: string): Promise<NodeView> {
  const res = await fetch(`${url}/v1/nodes/${encodeURIComponent(ident)}`, {
    headers: { 'X-OpenStack-Ironic-API-Version': '1.82' },
  });
  if (res.status !== 200) throw new Error(`GET node ${ident}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as NodeView;
}

/** Polls until `field` of the node equals `want`; throws naming the state after 10 s. */
function waitField(url: string, ident: string, field: keyof NodeView, want: unknown): Promise<NodeView> {
  return waitNode<NodeView & Record<string, unknown>>(url, ident, (n) => n[field] === want, 10_000, '1.82');
}

// The whole lifecycle runs on each database `ingot serve` can keep its state in.
describe.each(targetDialects())('baremetal CLI: the lifecycle (Ingot on %s)', (dialect) => {
  const target = useTarget(dialect);

  it('drives a fake-hardware node create → manage → inspect → provide → deploy → undeploy → delete, with power', async () => {
    const name = uniqueName('cli-life');
    const created = await baremetalJson<NodeView>(target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);
    expect(created.uuid).toMatch(UUID);
    expect(created).toMatchObject({ name, driver: 'fake-hardware', provision_state: 'enroll', last_error: null });

    const byName = await baremetalJson<NodeView>(target.url, ['node', 'show', name]);
    const byUuid = await baremetalJson<NodeView>(target.url, ['node', 'show', created.uuid]);
    expect(byName.uuid).toBe(created.uuid);
    expect(byUuid.name).toBe(name);

    const steps: [string, string][] = [
      ['manage', 'manageable'],
      ['inspect', 'manageable'],
      ['provide', 'available'],
      ['deploy', 'active'],
    ];
    for (const [verb, state] of steps) {
      const r = await baremetalOk(target.url, ['node', verb, '--wait', '60', name]);
      expect(r.stdout + r.stderr).toContain(`Waiting for provision state ${state} on node ${name}`);
      const node = await getNode(target.url, name);
      expect({ verb, state: node.provision_state, error: node.last_error }).toEqual({ verb, state, error: null });
    }

    await baremetalOk(target.url, ['node', 'power', 'off', name]);
    expect((await waitField(target.url, name, 'power_state', 'power off')).power_state).toBe('power off');
    await baremetalOk(target.url, ['node', 'power', 'on', name]);
    expect((await waitField(target.url, name, 'power_state', 'power on')).power_state).toBe('power on');

    const refused = await baremetal(target.url, ['node', 'delete', name]);
    expect(refused.code).toBe(1);
    expect(errorLine(refused)).toBe(
      `Failed to delete node ${name}: Can not delete node "${created.uuid}" while it is in provision state "active". ` +
        `Valid provision states to perform deletion are: "('manageable', 'enroll', 'adopt failed', 'available')", or set the node into maintenance mode (HTTP 409)`,
    );
    // The CLI retries every 409 five times, 2 s apart, before it gives up.
    expect(refused.stderr).toContain('Attempt 6 of 6');
    expect((await getNode(target.url, created.uuid)).provision_state).toBe('active');

    await baremetalOk(target.url, ['node', 'undeploy', '--wait', '60', name]);
    expect((await getNode(target.url, name)).provision_state).toBe('available');
    await baremetalOk(target.url, ['node', 'manage', '--wait', '60', name]);
    expect((await getNode(target.url, name)).provision_state).toBe('manageable');

    const deleted = await baremetalOk(target.url, ['node', 'delete', name]);
    expect(deleted.stdout).toContain(`Deleted node ${name}`);
    const gone = await baremetal(target.url, ['node', 'show', created.uuid]);
    expect(gone.code).toBe(1);
    expect(errorLine(gone)).toBe(`Node ${created.uuid} could not be found. (HTTP 404)`);
  }, 300_000);
});

describe.concurrent('baremetal CLI (Debian python3-ironicclient)', () => {
  const target = useTarget();

  it('creates ports, lists them by node, shows them by address and refuses a duplicate MAC', async () => {
    const name = uniqueName('cli-port');
    const mac = randomMac();
    const node = await baremetalJson<NodeView>(target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);

    const port = await baremetalJson<{ uuid: string; address: string; node_uuid: string; pxe_enabled: boolean }>(target.url, [
      'port', 'create', '--node', node.uuid, mac,
    ]);
    expect(port.uuid).toMatch(UUID);
    expect(port).toMatchObject({ address: mac, node_uuid: node.uuid, pxe_enabled: true });

    const listed = await baremetalJson<{ UUID: string; Address: string }[]>(target.url, ['port', 'list', '--node', name]);
    expect(listed).toEqual([{ UUID: port.uuid, Address: mac }]);

    const shown = await baremetalJson<{ uuid: string; node_uuid: string }>(target.url, ['port', 'show', '--address', mac]);
    expect(shown).toMatchObject({ uuid: port.uuid, node_uuid: node.uuid });

    // MAC addresses are compared case-insensitively (Ironic stores them lower-case).
    const dup = await baremetal(target.url, ['port', 'create', '--node', node.uuid, mac.toUpperCase()]);
    expect(dup.code).toBe(1);
    expect(errorLine(dup)).toBe(`A port with MAC address ${mac} already exists. (HTTP 409)`);

    // The ports API wants the node's UUID, not its name.
    const byName = await baremetal(target.url, ['port', 'create', '--node', name, randomMac()]);
    expect(byName.code).toBe(1);
    expect(errorLine(byName)).toBe(`Expected UUID for node_uuid: ${name} (HTTP 400)`);

    await baremetalOk(target.url, ['port', 'delete', port.uuid]);
    expect(await baremetalJson(target.url, ['port', 'list', '--node', name])).toEqual([]);
    await baremetalOk(target.url, ['node', 'delete', name]);
  }, 300_000);

  it('updates nodes with JSON Patch through node set / unset, including a rename', async () => {
    const name = uniqueName('cli-patch');
    const renamed = `${name}-b`;
    await baremetalJson(target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);

    await baremetalOk(target.url, [
      'node', 'set', name, '--property', 'cpus=4', '--property', 'memory_mb=2048', '--extra', 'team=blue',
      '--description', 'rack 4', '--name', renamed,
    ]);
    const set = await baremetalJson<NodeView>(target.url, ['node', 'show', renamed]);
    expect(set).toMatchObject({
      name: renamed,
      description: 'rack 4',
      properties: { cpus: 4, memory_mb: 2048 },
      extra: { team: 'blue' },
    });
    const old = await baremetal(target.url, ['node', 'show', name]);
    expect(old.code).toBe(1);
    expect(errorLine(old)).toBe(`Node ${name} could not be found. (HTTP 404)`);

    await baremetalOk(target.url, ['node', 'unset', renamed, '--property', 'cpus', '--extra', 'team', '--description']);
    const unset = await baremetalJson<NodeView>(target.url, ['node', 'show', renamed]);
    expect(unset).toMatchObject({ description: null, properties: { memory_mb: 2048 }, extra: {} });

    const missing = await baremetal(target.url, ['node', 'unset', renamed, '--property', 'nosuch']);
    expect(missing.code).toBe(1);
    expect(errorLine(missing)).toBe("Couldn't apply patch '{'op': 'remove', 'path': '/properties/nosuch'}'. Reason: can't remove a non-existent object 'nosuch' (HTTP 400)");

    const badDriver = await baremetal(target.url, ['node', 'set', renamed, '--driver', 'nosuch']);
    expect(badDriver.code).toBe(1);
    expect(errorLine(badDriver)).toBe('No valid host was found. Reason: No conductor service registered which supports driver nosuch for conductor group "". (HTTP 400)');
    expect((await getNode(target.url, renamed)).driver).toBe('fake-hardware');

    await baremetalOk(target.url, ['node', 'delete', renamed]);
  }, 300_000);

  it('reports Ironic’s errors: 404, 400 invalid transition, 409 duplicate name', async () => {
    const name = uniqueName('cli-err');
    const node = await baremetalJson<NodeView>(target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);

    const missing = await baremetal(target.url, ['node', 'show', `${name}-nope`]);
    expect(missing.code).toBe(1);
    expect(errorLine(missing)).toBe(`Node ${name}-nope could not be found. (HTTP 404)`);

    const deploy = await baremetal(target.url, ['node', 'deploy', name]);
    expect(deploy.code).toBe(1);
    expect(errorLine(deploy)).toBe(
      `The requested action "active" can not be performed on node "${node.uuid}" while it is in state "enroll". (HTTP 400)`,
    );
    expect((await getNode(target.url, name)).provision_state).toBe('enroll');

    const dup = await baremetal(target.url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);
    expect(dup.code).toBe(1);
    expect(errorLine(dup)).toBe(`A node with name ${name} already exists. (HTTP 409)`);

    await baremetalOk(target.url, ['node', 'delete', name]);
  }, 300_000);

  it('sends the request id as Openstack-Request-Id, so the CLI prints no Request-ID (as Ironic 21.4)', async () => {
    const res = await fetch(`${target.url}/v1/nodes/no-such-node`, { headers: { 'X-OpenStack-Ironic-API-Version': '1.82' } });
    expect(res.status).toBe(404);
    // Errors carry a JSON document inside a JSON string, as Ironic's WSME answers.
    const body = (await res.json()) as { error_message: string };
    expect(JSON.parse(body.error_message)).toEqual({ faultcode: 'Client', faultstring: 'Node no-such-node could not be found.', debuginfo: null });
    // Ironic 21.4 names it Openstack-Request-Id; ironicclient only shows X-OpenStack-Request-Id.
    expect(res.headers.get('openstack-request-id') ?? '(no Openstack-Request-Id header)').toMatch(/^req-[0-9a-f-]{36}$/);
    expect(res.headers.get('x-openstack-request-id')).toBeNull();
    const cli = await baremetal(target.url, ['node', 'show', 'no-such-node']);
    expect(cli.stderr.trim()).toBe('Node no-such-node could not be found. (HTTP 404)');
  }, 120_000);

  it('refuses an unsupported microversion with 406 and the supported range', async () => {
    const cli = await baremetal(target.url, ['--os-baremetal-api-version', '1.999', 'node', 'list']);
    expect(cli.code).toBe(1);
    // The client reads the range from the 406 answer's headers, capped at the newest version it knows (1.78).
    expect(cli.stderr.replace(/\s+/g, ' ')).toContain(
      'Requested API version 1.999 is not supported by the server, client, or the requested operation is not supported by the requested version. Supported version range is 1.1 to 1.78',
    );

    const res = await fetch(`${target.url}/v1/nodes`, { headers: { 'X-OpenStack-Ironic-API-Version': '1.999' } });
    expect(res.status).toBe(406);
    expect(res.headers.get('x-openstack-ironic-api-minimum-version')).toBe('1.1');
    // Ironic 21.4 advertises 1.82; a server may advertise more, never less (the clients need 1.82).
    const max = res.headers.get('x-openstack-ironic-api-maximum-version') ?? '';
    expect(max).toMatch(/^1\.\d+$/);
    expect(Number(max.split('.')[1])).toBeGreaterThanOrEqual(82);
    // The inner document of a 406 is code/title/description, not faultcode/faultstring.
    const body = (await res.json()) as { error_message: string };
    expect(JSON.parse(body.error_message)).toEqual({
      code: 406,
      title: 'Not Acceptable',
      description: `Version 1.999 was requested but the minor version is not supported by this service. The supported version range is: [1.1, ${max}].`,
    });

    const major = await fetch(`${target.url}/v1/nodes`, { headers: { 'X-OpenStack-Ironic-API-Version': '2.1' } });
    expect(major.status).toBe(406);
    expect(JSON.parse(((await major.json()) as { error_message: string }).error_message)).toMatchObject({
      code: 406,
      description: `Mutually exclusive versions requested. Version 2.1 requested but not supported by this service. The supported version range is: [1.1, ${max}].`,
    });
  }, 120_000);
});
