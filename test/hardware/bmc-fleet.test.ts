/**
 * The BMC drivers end to end: `ingot bmc` emulates a small fleet (some machines with injected faults),
 * `ingot serve` drives it, and the real `baremetal` CLI enrolls, manages, inspects and powers the nodes.
 * What the emulator did is read back independently: Redfish over plain HTTP, IPMI with the real ipmitool.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryEntry } from '../../src/bmc/inventory.js';
import { driverInfoFor } from '../../src/bmc/inventory.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { baremetal, baremetalJson, baremetalOk, requireClients } from '../support/openstack-clients.js';
import { startBmc, type RunningBmc } from '../support/bmc.js';
import { api, waitNode } from '../support/http.js';
import { freePort, startServer, type RunningServer } from '../support/server.js';

const run = promisify(execFile);
const IPMITOOL = '/usr/bin/ipmitool';

type NodeView = Record<string, unknown> & {
  uuid: string;
  provision_state: string;
  power_state: string | null;
  target_power_state: string | null;
  reservation: string | null;
  last_error: string | null;
  maintenance: boolean;
  fault: string | null;
  properties: Record<string, unknown>;
};

// Each test enrolls the nodes it drives, one per machine: no test depends on what an earlier one did.
const MACHINES = [
  { name: 'rf-0', backend: 'simulated' },
  { name: 'rf-1', backend: 'simulated' },
  { name: 'rf-2', backend: 'simulated' },
  { name: 'ipmi-0', backend: 'simulated' },
  { name: 'rf-hang', backend: 'simulated', faults: { hang_power: true } },
  { name: 'rf-storm', backend: 'simulated', faults: { error_rate: 1 } },
  { name: 'ipmi-lossy', backend: 'simulated', faults: { drop_rate: 0.2 } },
  { name: 'ipmi-hang', backend: 'simulated', faults: { hang_power: true } },
];

let bmc: RunningBmc;
let ingot: RunningServer;
let url: string;

async function redfishSystem(entry: InventoryEntry): Promise<Record<string, unknown> & { PowerState: string; Boot: Record<string, string> }> {
  const res = await fetch(`${entry.redfish_address}${entry.redfish_system_id}`, {
    headers: { authorization: `Basic ${Buffer.from(`${entry.username}:${entry.password}`).toString('base64')}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown> & { PowerState: string; Boot: Record<string, string> };
}

async function ipmitool(entry: InventoryEntry, ...args: string[]): Promise<string> {
  const { stdout } = await run(IPMITOOL, ['-I', 'lanplus', '-C', '17', '-H', entry.ipmi_address, '-p', String(entry.ipmi_port), '-U', entry.username, '-P', entry.password, ...args], { timeout: 30_000 });
  return stdout;
}

function driverInfoArgs(info: Record<string, string | number>): string[] {
  return Object.entries(info).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]);
}

async function enroll(name: string, driver: 'redfish' | 'ipmi', info: Record<string, string | number>): Promise<NodeView> {
  return baremetalJson<NodeView>(url, ['node', 'create', '--driver', driver, '--name', name, ...driverInfoArgs(info)]);
}

const node = async (name: string) => (await api<NodeView>(url, 'GET', `/v1/nodes/${name}`)).body;

/** Enrolls the node of machine `name` and manages it. */
async function managed(name: string, driver: 'redfish' | 'ipmi'): Promise<InventoryEntry> {
  const entry = bmc.machine(name);
  await enroll(name, driver, driverInfoFor(entry, driver));
  await baremetalOk(url, ['node', 'manage', name, '--wait', '60']);
  return entry;
}
const settled = (n: NodeView) => n.reservation === null && n.target_power_state === null;

async function history(name: string): Promise<string[]> {
  const r = await api<{ history: { event: string }[] }>(url, 'GET', `/v1/nodes/${name}/history?detail=true`);
  return r.body.history.map((h) => h.event);
}

beforeAll(async () => {
  requireClients();
  if (!existsSync(IPMITOOL)) throw new Error(`${IPMITOOL} is missing: apt-get install ipmitool`);
  bmc = await startBmc(MACHINES);
  ingot = await startServer({
    env: {
      INGOT_LOG_LEVEL: 'info',
      INGOT_CONDUCTOR_POWER_STATE_CHANGE_TIMEOUT_S: '3',
      INGOT_CONDUCTOR_SYNC_POWER_STATE_INTERVAL_S: '0.5',
      INGOT_CONDUCTOR_POWER_STATE_SYNC_MAX_RETRIES: '2',
      INGOT_CONDUCTOR_POWER_FAILURE_RECOVERY_INTERVAL_S: '0.5',
      INGOT_REDFISH_CONNECTION_ATTEMPTS: '3',
      INGOT_REDFISH_CONNECTION_RETRY_INTERVAL_S: '0.1',
      INGOT_REDFISH_REQUEST_TIMEOUT_S: '5',
      INGOT_IPMI_COMMAND_RETRY_TIMEOUT_S: '8',
      INGOT_IPMI_MIN_COMMAND_INTERVAL_S: '0.05',
      INGOT_IPMI_RETRANSMIT_INITIAL_S: '0.3',
    },
  });
  url = ingot.url;
}, 60_000);

afterAll(async () => {
  await ingot?.dispose();
  await bmc?.stop();
});

describe('nodes on emulated BMCs, driven by the real baremetal CLI', () => {
  it('redfish: manage, power on/reboot/off and boot device, as the emulator sees them', async () => {
    const entry = bmc.machine('rf-0');
    await enroll('rf-0', 'redfish', driverInfoFor(entry, 'redfish'));
    await baremetalOk(url, ['node', 'manage', 'rf-0', '--wait', '60']);
    expect(await node('rf-0')).toMatchObject({ provision_state: 'manageable', power_state: 'power off', last_error: null });

    await baremetalOk(url, ['node', 'power', 'on', 'rf-0']);
    await waitNode<NodeView>(url, 'rf-0', (n) => settled(n) && n.power_state === 'power on');
    expect((await redfishSystem(entry)).PowerState).toBe('On');
    await baremetalOk(url, ['node', 'reboot', 'rf-0']);
    await waitNode<NodeView>(url, 'rf-0', (n) => settled(n) && n.power_state === 'power on');
    await baremetalOk(url, ['node', 'power', 'off', 'rf-0']);
    await waitNode<NodeView>(url, 'rf-0', (n) => settled(n) && n.power_state === 'power off');
    expect((await redfishSystem(entry)).PowerState).toBe('Off');

    await baremetalOk(url, ['node', 'boot', 'device', 'set', 'rf-0', 'pxe', '--persistent']);
    expect((await redfishSystem(entry)).Boot).toMatchObject({ BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Continuous' });
    expect(await baremetalJson(url, ['node', 'boot', 'device', 'show', 'rf-0'])).toEqual({ boot_device: 'pxe', persistent: true });
    await baremetalOk(url, ['node', 'boot', 'device', 'set', 'rf-0', 'disk']);
    expect((await redfishSystem(entry)).Boot).toMatchObject({ BootSourceOverrideTarget: 'Hdd', BootSourceOverrideEnabled: 'Once' });
    const supported = await baremetalJson<{ supported_boot_devices: string }>(url, ['node', 'boot', 'device', 'show', 'rf-0', '--supported']);
    expect(supported.supported_boot_devices.split(', ')).toEqual(expect.arrayContaining(['pxe', 'disk', 'cdrom', 'bios']));
  }, 120_000);

  it('redfish: out-of-band inspection fills the properties and creates the ports', async () => {
    await managed('rf-1', 'redfish');
    await baremetalOk(url, ['node', 'inspect', 'rf-1', '--wait', '60']);
    const profile = simulatedProfile(1, 'rf-1');
    const n = await node('rf-1');
    expect(n.provision_state).toBe('manageable');
    expect(n.properties).toMatchObject({ cpus: profile.cpu.count, cpu_arch: 'x86_64', memory_mb: profile.memory_mib });
    expect(n.properties.local_gb).toBeGreaterThan(0);
    const ports = await baremetalJson<{ Address: string }[]>(url, ['port', 'list', '--node', 'rf-1']);
    expect(ports.map((p) => p.Address).sort()).toEqual([...bmc.machine('rf-1').macs].sort());
    expect((await history('rf-1')).some((e) => new RegExp(`port\\(s\\) found; ${profile.nics.length} created`).test(e))).toBe(true);
  }, 120_000);

  it('ipmi: manage, power and boot device, as ipmitool reads them back', async () => {
    const entry = bmc.machine('ipmi-0');
    await enroll('ipmi-0', 'ipmi', driverInfoFor(entry, 'ipmi'));
    await baremetalOk(url, ['node', 'manage', 'ipmi-0', '--wait', '60']);
    await baremetalOk(url, ['node', 'power', 'on', 'ipmi-0']);
    await waitNode<NodeView>(url, 'ipmi-0', (n) => settled(n) && n.power_state === 'power on');
    expect(await ipmitool(entry, 'power', 'status')).toMatch(/Chassis Power is on/);
    await baremetalOk(url, ['node', 'reboot', 'ipmi-0']);
    await waitNode<NodeView>(url, 'ipmi-0', (n) => settled(n) && n.power_state === 'power on');
    expect((await node('ipmi-0')).last_error).toBeNull();
    await baremetalOk(url, ['node', 'boot', 'device', 'set', 'ipmi-0', 'pxe', '--persistent']);
    expect(await ipmitool(entry, 'chassis', 'bootparam', 'get', '5')).toMatch(/Force PXE/);
    expect(await baremetalJson(url, ['node', 'boot', 'device', 'show', 'ipmi-0'])).toEqual({ boot_device: 'pxe', persistent: true });

    // Someone powers the machine off behind Ingot's back: the power sync notices and records it.
    await ipmitool(entry, 'power', 'off');
    await waitNode<NodeView>(url, 'ipmi-0', (n) => n.power_state === 'power off', 20_000);
    expect((await history('ipmi-0')).some((e) => /power state mismatch: Ingot recorded power on, the hardware says power off/.test(e))).toBe(true);
  }, 120_000);

  it('a BMC that stops accepting the credentials puts the node in maintenance; fixing them brings it back', async () => {
    const entry = await managed('rf-2', 'redfish');
    await baremetalOk(url, ['node', 'set', 'rf-2', '--driver-info', 'redfish_password=wrong']);
    const failed = await waitNode<NodeView>(url, 'rf-2', (n) => n.maintenance, 30_000);
    expect(failed).toMatchObject({ fault: 'power failure', reservation: null });
    expect(failed.last_error).toMatch(/Power state sync failed 2 times in a row: .*401/);
    await baremetalOk(url, ['node', 'set', 'rf-2', '--driver-info', `redfish_password=${entry.password}`]);
    const back = await waitNode<NodeView>(url, 'rf-2', (n) => !n.maintenance, 30_000);
    expect(back).toMatchObject({ fault: null, last_error: null, power_state: 'power off' });
    expect((await history('rf-2')).some((e) => /the BMC answers again/.test(e))).toBe(true);
  }, 120_000);
});

describe('BMC faults end with a clear last_error and no lock', () => {
  async function failsToManage(name: string, driver: 'redfish' | 'ipmi', info: Record<string, string | number>): Promise<NodeView> {
    await enroll(name, driver, info);
    const r = await baremetal(url, ['node', 'manage', name, '--wait', '60']);
    expect(r.code).not.toBe(0);
    const n = await waitNode<NodeView>(url, name, (x) => x.provision_state === 'enroll' && x.reservation === null);
    expect(n.last_error).toBeTruthy();
    return n;
  }

  it('wrong passwords, on both protocols', async () => {
    const rf = await failsToManage('rf-badpw', 'redfish', { ...driverInfoFor(bmc.machine('rf-0'), 'redfish'), redfish_password: 'nope' });
    expect(rf.last_error).toMatch(/401/);
    const ipmi = await failsToManage('ipmi-badpw', 'ipmi', { ...driverInfoFor(bmc.machine('ipmi-0'), 'ipmi'), ipmi_password: 'nope' });
    expect(ipmi.last_error).toMatch(/password/i);
  }, 120_000);

  it('unreachable BMCs, on both protocols', async () => {
    const closed = await freePort();
    const rf = await failsToManage('rf-gone', 'redfish', { ...driverInfoFor(bmc.machine('rf-0'), 'redfish'), redfish_address: `http://127.0.0.1:${closed}` });
    expect(rf.last_error).toMatch(/could not be reached .* after 3 attempts/);
    const ipmi = await failsToManage('ipmi-gone', 'ipmi', { ...driverInfoFor(bmc.machine('ipmi-0'), 'ipmi'), ipmi_port: closed });
    expect(ipmi.last_error).toMatch(/did not answer/);
  }, 120_000);

  it('a 5xx storm: the retries show in the log and the last_error says they were given up', async () => {
    const n = await failsToManage('rf-storm', 'redfish', driverInfoFor(bmc.machine('rf-storm'), 'redfish'));
    expect(n.last_error).toMatch(/answered 500 .*gave up after 3 attempts/);
    expect(ingot.output()).toMatch(/failed \(attempt 1: HTTP 500\); retrying in \d+ ms/);
  }, 120_000);

  it('a power transition that hangs fails after the power timeout, leaving the node unlocked', async () => {
    for (const [name, driver] of [['rf-hang', 'redfish'], ['ipmi-hang', 'ipmi']] as const) {
      await enroll(name, driver, driverInfoFor(bmc.machine(name), driver));
      await baremetalOk(url, ['node', 'manage', name, '--wait', '60']);
      await baremetalOk(url, ['node', 'power', 'on', name]);
      const n = await waitNode<NodeView>(url, name, (x) => settled(x) && x.last_error !== null, 30_000);
      expect(n.power_state).toBe('power off');
      expect(n.last_error).toMatch(/Failed to change power state to 'power on'.*power on/);
      expect((await history(name)).some((e) => e.startsWith("Failed to change power state to 'power on'"))).toBe(true);
    }
  }, 120_000);

  it('dropped IPMI packets are retransmitted and the node works', async () => {
    const entry = bmc.machine('ipmi-lossy');
    await enroll('ipmi-lossy', 'ipmi', driverInfoFor(entry, 'ipmi'));
    await baremetalOk(url, ['node', 'manage', 'ipmi-lossy', '--wait', '60']);
    await baremetalOk(url, ['node', 'power', 'on', 'ipmi-lossy']);
    const n = await waitNode<NodeView>(url, 'ipmi-lossy', (x) => settled(x) && x.power_state === 'power on', 30_000);
    expect(n.last_error).toBeNull();
  }, 120_000);
});
