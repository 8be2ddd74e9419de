/**
 * The `ingot` client CLI (`bin/ingot.js node …`, `port …`) against a real `ingot serve` (SQLite,
 * fake-hardware nodes), each command a child process as a user runs it: enrollment, lists, updates, the
 * provision verbs and power with `--wait`, the history, the boot device, maintenance, ports, and what a
 * user sees on bad input and for a node that does not exist (exit code 1, one `ingot: …` line on stderr).
 * The unit tests beside the CLI (src/cli/) use a fake Ironic for the answers a real server does not give.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson, runCliOk } from '../support/cli.js';
import { api, type NodeView } from '../support/http.js';
import { startServer, type RunningServer } from '../support/server.js';

/** Each command is a Node start (a fraction of a second, more on a busy machine); a test runs up to a dozen. */
const CLI_TEST_TIMEOUT_MS = 120_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;


interface PortView {
  uuid: string;
  address: string;
  node_uuid: string;
  pxe_enabled: boolean;
  extra: Record<string, unknown>;
}

let server: RunningServer;
let url: string;
let counter = 0;

/** A node name no other test of this file uses. */
function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** The node as the API shows it (read over plain HTTP, independent of the CLI). */
async function apiNode(ident: string): Promise<NodeView> {
  const r = await api<NodeView>(url, 'GET', `/v1/nodes/${encodeURIComponent(ident)}`);
  if (r.status !== 200) throw new Error(`GET node ${ident}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The one `ingot: …` line a failed command prints. */
function errorLine(stderr: string): string {
  const lines = stderr.trim().split('\n').filter((l) => l.startsWith('ingot: ') || l.startsWith('error: '));
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

beforeAll(async () => {
  server = await startServer();
  url = server.url;
});

afterAll(async () => {
  await server?.dispose();
});

describe('ingot node against ingot serve', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('creates a node, shows it by name and UUID, and lists it with filters, fields and formats', async () => {
    const name = uniqueName('cli-crud');
    const created = await runCliJson<NodeView>(url, [
      'node', 'create', '--driver', 'fake-hardware', '--name', name, '--property', 'cpus=4', '--property', 'memory_mb=2048',
      '--extra', 'rack=r1', '--description', 'first node', '--resource-class', 'baremetal',
    ]);
    expect(created.uuid).toMatch(UUID);
    expect(created).toMatchObject({
      name, driver: 'fake-hardware', provision_state: 'enroll', description: 'first node',
      properties: { cpus: '4', memory_mb: '2048' }, extra: { rack: 'r1' },
    });
    expect(created).not.toHaveProperty('links');
    expect(await apiNode(created.uuid)).toMatchObject({ name, provision_state: 'enroll', extra: { rack: 'r1' } });

    const byName = await runCliJson<NodeView>(url, ['node', 'show', name]);
    const byUuid = await runCliJson<NodeView>(url, ['node', 'show', created.uuid]);
    expect(byName.uuid).toBe(created.uuid);
    expect(byUuid.name).toBe(name);

    const fields = await runCliOk(url, ['node', 'show', name, '--fields', 'name,provision_state,resource_class', '-f', 'value']);
    expect(fields.stdout).toBe(`${name}\nenroll\nbaremetal\n`);

    const table = await runCliOk(url, ['node', 'show', name]);
    expect(table.stdout).toMatch(new RegExp(`^\\| provision_state +\\| enroll +\\|$`, 'm'));
    expect(table.stdout).toMatch(new RegExp(`^\\| name +\\| ${name} +\\|$`, 'm'));

    const listed = await runCliJson<{ uuid: string; name: string; provision_state: string; maintenance: boolean }[]>(url, ['node', 'list']);
    expect(listed).toContainEqual({ uuid: created.uuid, name, instance_uuid: null, power_state: null, provision_state: 'enroll', maintenance: false });

    const filtered = await runCliOk(url, ['node', 'list', '--provision-state', 'enroll', '--resource-class', 'baremetal', '--fields', 'uuid,name', '-f', 'value']);
    expect(filtered.stdout.split('\n')).toContain(`${created.uuid} ${name}`);
    const none = await runCliJson<unknown[]>(url, ['node', 'list', '--provision-state', 'active', '--resource-class', 'baremetal']);
    expect(none).toEqual([]);

    const long = await runCliJson<NodeView[]>(url, ['node', 'list', '--long']);
    expect(long.find((n) => n.uuid === created.uuid)).toMatchObject({ driver: 'fake-hardware', properties: { cpus: '4' } });

    const deleted = await runCliOk(url, ['node', 'delete', name]);
    expect(deleted.stdout).toBe(`Deleted node ${name}\n`);
    expect((await api(url, 'GET', `/v1/nodes/${created.uuid}`)).status).toBe(404);
  });

  it('updates a node with set and unset (JSON Patch), including a rename', async () => {
    const name = uniqueName('cli-set');
    const renamed = `${name}-b`;
    const created = await runCliJson<NodeView>(url, ['node', 'create', '--driver', 'fake-hardware', '--name', name, '--extra', 'a=1', '--extra', 'b=2']);

    const set = await runCliOk(url, [
      'node', 'set', name, '--name', renamed, '--description', 'updated', '--property', 'cpu_arch=x86_64',
      '--extra', 'c=3', '--instance-info', 'image_source=http://127.0.0.1/img.qcow2',
    ]);
    expect(set.stdout).toBe('');
    expect(await apiNode(created.uuid)).toMatchObject({
      name: renamed, description: 'updated', properties: { cpu_arch: 'x86_64' }, extra: { a: '1', b: '2', c: '3' },
      instance_info: { image_source: 'http://127.0.0.1/img.qcow2' },
    });

    await runCliOk(url, ['node', 'unset', renamed, '--extra', 'a', '--description', '--instance-info', 'image_source']);
    const after = await apiNode(created.uuid);
    expect(after.extra).toEqual({ b: '2', c: '3' });
    expect(after.description).toBeNull();
    expect(after.instance_info).toEqual({});

    // The old name is gone with the rename.
    const old = await runCli(url, ['node', 'show', name]);
    expect(old.code).toBe(1);
    expect(errorLine(old.stderr)).toBe(`ingot: Node ${name} could not be found. (HTTP 404)`);
    await runCliOk(url, ['node', 'delete', created.uuid]);
  });

  it('takes a node through manage, provide, deploy and undeploy with --wait, power with --wait, and shows its history', async () => {
    const name = uniqueName('cli-life');
    const created = await runCliJson<NodeView>(url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);

    const steps: [verb: string, state: string, extra: string[]][] = [
      ['manage', 'manageable', []],
      ['provide', 'available', []],
      ['deploy', 'active', ['--config-drive', '{"meta_data": {"hostname": "cli-host"}}']],
    ];
    for (const [verb, state, extra] of steps) {
      const r = await runCli(url, ['node', verb, name, '--wait', '60', ...extra]);
      expect({ verb, code: r.code, stdout: r.stdout }, r.stderr).toEqual({ verb, code: 0, stdout: '' });
      // The last stderr line is the outcome: the state it settled in and how long it took.
      expect(r.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^${name}: ${state} after \\d+\\.\\d s$`));
      expect(await apiNode(created.uuid)).toMatchObject({ provision_state: state, target_provision_state: null, last_error: null });
    }

    const off = await runCli(url, ['node', 'power', 'off', name, '--wait', '30']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^${name}: power off after \\d+\\.\\d s$`));
    expect((await apiNode(name)).power_state).toBe('power off');
    const on = await runCli(url, ['node', 'power', 'on', name, '--wait', '30']);
    expect(on.code, on.stderr).toBe(0);
    expect((await apiNode(name)).power_state).toBe('power on');

    // An active node cannot be deleted: the server's refusal, the node untouched.
    const refused = await runCli(url, ['node', 'delete', name]);
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines, refused.stderr).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^ingot: failed to delete node ${name}: Can not delete node "${created.uuid}" while it is in provision state "active"\\. .* \\(HTTP 409\\)$`));
    expect(lines[1]).toBe('ingot: 1 of 1 nodes could not be deleted');
    expect((await apiNode(name)).provision_state).toBe('active');

    const undeploy = await runCli(url, ['node', 'undeploy', name, '--wait', '60']);
    expect(undeploy.code, undeploy.stderr).toBe(0);
    expect((await apiNode(name)).provision_state).toBe('available');

    const history = await runCliJson<{ uuid: string; created_at: string; severity: string; event: string }[]>(url, ['node', 'history', 'list', name]);
    expect(history.length).toBeGreaterThanOrEqual(4);
    for (const ev of history) {
      expect(ev.uuid).toMatch(UUID);
      expect(['info', 'warning', 'error']).toContain(ev.severity.toLowerCase());
    }
    const events = history.map((e) => e.event).join('\n');
    for (const word of ['manageable', 'available', 'active']) expect(events).toContain(word);
    const first = history[0] as { uuid: string; event: string };
    const one = await runCliJson<{ uuid: string; event: string }>(url, ['node', 'history', 'get', name, first.uuid]);
    expect(one).toMatchObject({ uuid: first.uuid, event: first.event });
    const table = await runCliOk(url, ['node', 'history', 'list', name, '--long']);
    expect(table.stdout).toMatch(/^\| UUID +\| Created At +\| Severity +\| Description +\| Event Type +\| Conductor +\| User /m);

    await runCliOk(url, ['node', 'delete', name]);
  });

  it('sets and shows the boot device, validates, and puts a node in and out of maintenance', async () => {
    const name = uniqueName('cli-misc');
    await runCliJson<NodeView>(url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);

    const supported = await runCliJson<{ supported_boot_devices: string[] }>(url, ['node', 'boot-device', 'show', name, '--supported']);
    expect(supported.supported_boot_devices).toEqual(expect.arrayContaining(['pxe', 'disk']));
    await runCliOk(url, ['node', 'boot-device', 'set', name, 'pxe', '--persistent']);
    expect(await runCliJson(url, ['node', 'boot-device', 'show', name])).toEqual({ boot_device: 'pxe', persistent: true });
    await runCliOk(url, ['node', 'boot-device', 'set', name, 'disk']);
    expect(await runCliJson(url, ['node', 'boot-device', 'show', name])).toEqual({ boot_device: 'disk', persistent: false });

    const validation = await runCliJson<{ interface: string; result: boolean | null; reason: string | null }[]>(url, ['node', 'validate', name]);
    expect(validation.find((v) => v.interface === 'power')).toEqual({ interface: 'power', result: true, reason: null });
    expect(validation.find((v) => v.interface === 'management')).toEqual({ interface: 'management', result: true, reason: null });

    await runCliOk(url, ['node', 'maintenance', 'set', name, '--reason', 'disk swap']);
    expect(await apiNode(name)).toMatchObject({ maintenance: true, maintenance_reason: 'disk swap' });
    const inMaintenance = await runCliOk(url, ['node', 'list', '--maintenance', '--fields', 'name', '-f', 'value']);
    expect(inMaintenance.stdout.split('\n')).toContain(name);
    await runCliOk(url, ['node', 'maintenance', 'unset', name]);
    expect(await apiNode(name)).toMatchObject({ maintenance: false, maintenance_reason: null });

    await runCliOk(url, ['node', 'delete', name]);
  });
});

describe('ingot port against ingot serve', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('creates, lists, shows, updates and deletes ports, and refuses a duplicate MAC', async () => {
    const name = uniqueName('cli-port');
    const node = await runCliJson<NodeView>(url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);
    const mac = '52:54:00:c1:00:01';

    // --node takes the name: the CLI resolves it to the UUID the ports API wants.
    const port = await runCliJson<PortView>(url, ['port', 'create', mac, '--node', name, '--extra', 'slot=1']);
    expect(port.uuid).toMatch(UUID);
    expect(port).toMatchObject({ address: mac, node_uuid: node.uuid, pxe_enabled: true, extra: { slot: '1' } });

    const listed = await runCliJson<{ uuid: string; address: string }[]>(url, ['port', 'list', '--node', name]);
    expect(listed).toEqual([{ uuid: port.uuid, address: mac }]);
    const byAddress = await runCliJson<PortView>(url, ['port', 'show', '--address', mac]);
    expect(byAddress).toMatchObject({ uuid: port.uuid, node_uuid: node.uuid });

    await runCliOk(url, ['port', 'set', port.uuid, '--pxe-disabled', '--extra', 'switch=sw1']);
    expect(await runCliJson<PortView>(url, ['port', 'show', port.uuid])).toMatchObject({ pxe_enabled: false, extra: { slot: '1', switch: 'sw1' } });
    await runCliOk(url, ['port', 'unset', port.uuid, '--extra', 'slot']);
    expect((await runCliJson<PortView>(url, ['port', 'show', port.uuid])).extra).toEqual({ switch: 'sw1' });

    // The server compares MACs case-insensitively.
    const dup = await runCli(url, ['port', 'create', mac.toUpperCase(), '--node', node.uuid]);
    expect(dup.code).toBe(1);
    expect(errorLine(dup.stderr)).toBe(`ingot: A port with MAC address ${mac} already exists. (HTTP 409)`);

    const bad = await runCli(url, ['port', 'create', 'not-a-mac', '--node', node.uuid]);
    expect(bad.code).toBe(1);
    expect(errorLine(bad.stderr)).toBe('ingot: Expected a MAC address but received "not-a-mac". (HTTP 400)');

    const deleted = await runCliOk(url, ['port', 'delete', port.uuid]);
    expect(deleted.stdout).toBe(`Deleted port ${port.uuid}\n`);
    expect(await runCliJson(url, ['port', 'list', '--node', name])).toEqual([]);
    await runCliOk(url, ['node', 'delete', name]);
  });
});

describe('what the CLI says when something is wrong', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('a missing node: exit 1 and the server’s 404 message, for show, set, verbs, power, history and ports', async () => {
    const missing = uniqueName('no-such-node');
    const cases: string[][] = [
      ['node', 'show', missing],
      ['node', 'set', missing, '--description', 'x'],
      ['node', 'manage', missing, '--wait', '10'],
      ['node', 'power', 'on', missing],
      ['node', 'history', 'list', missing],
      ['port', 'create', '52:54:00:c1:00:99', '--node', missing],
    ];
    for (const args of cases) {
      const r = await runCli(url, args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(errorLine(r.stderr), args.join(' ')).toBe(`ingot: Node ${missing} could not be found. (HTTP 404)`);
    }
  });

  it('bad input the server refuses: the server’s message with its status, nothing created', async () => {
    const name = uniqueName('cli-bad');
    const driver = await runCli(url, ['node', 'create', '--driver', 'no-such-driver', '--name', name]);
    expect(driver.code).toBe(1);
    expect(errorLine(driver.stderr)).toBe(
      'ingot: No valid host was found. Reason: No conductor service registered which supports driver no-such-driver for conductor group "". (HTTP 400)',
    );
    expect((await api(url, 'GET', `/v1/nodes/${name}`)).status).toBe(404);

    const node = await runCliJson<NodeView>(url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);
    const dupName = await runCli(url, ['node', 'create', '--driver', 'fake-hardware', '--name', name]);
    expect(dupName.code).toBe(1);
    expect(errorLine(dupName.stderr)).toBe(`ingot: A node with name ${name} already exists. (HTTP 409)`);

    // A verb the node's state does not allow.
    const deploy = await runCli(url, ['node', 'deploy', name]);
    expect(deploy.code).toBe(1);
    expect(errorLine(deploy.stderr)).toBe(
      `ingot: The requested action "deploy" can not be performed on node "${node.uuid}" while it is in state "enroll". (HTTP 400)`,
    );
    expect((await apiNode(name)).provision_state).toBe('enroll');
    await runCliOk(url, ['node', 'delete', name]);
  });

  it('bad input the CLI refuses itself: exit 1 and a message naming the option, no request sent', async () => {
    const name = uniqueName('cli-local');
    const cases: [args: string[], message: RegExp][] = [
      [['node', 'create', '--name', name], /^error: required option '--driver <driver>' not specified$/],
      [['node', 'create', '--driver', 'fake-hardware', '--name', name, '--property', 'novalue'], /^ingot: --property expects key=value, got 'novalue'$/],
      [['node', 'create', '--driver', 'fake-hardware', '--name', name, '-f', 'yaml'], /^ingot: --format must be table, json or value, not 'yaml'$/],
      [['node', 'set', name], /^ingot: nothing to set: pass at least one option \(see --help\)$/],
      [['node', 'clean', name], /^ingot: clean needs --clean-steps$/],
      [['node', 'list', '--os-baremetal-api-version', '2.0'], /^ingot: --os-baremetal-api-version must be 1\.Y or latest, not '2\.0'$/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(url, args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(errorLine(r.stderr), args.join(' ')).toMatch(message);
    }
    expect((await api(url, 'GET', `/v1/nodes/${name}`)).status).toBe(404);
  });

  it('an endpoint that does not answer: exit 1 and a message naming it', async () => {
    const r = await runCli('http://127.0.0.1:9', ['node', 'list']);
    expect(r.code).toBe(1);
    expect(errorLine(r.stderr)).toMatch(/^ingot: cannot reach http:\/\/127\.0\.0\.1:9\b/);
  });
});
