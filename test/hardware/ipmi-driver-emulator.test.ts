/**
 * The `ipmi` hardware type with cipher suite 17 (HMAC-SHA256, AES-CBC-128), which ipmi_sim lacks: Ingot's
 * client against Ingot's IPMI emulator (src/bmc/ipmi) serving simulated machines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIpmiServer } from '../../src/bmc/ipmi/server.js';
import type { IpmiServer } from '../../src/bmc/ipmi/server.js';
import type { Machine } from '../../src/bmc/machine.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';
import type { JsonObject } from '../../src/domain/node.js';
import { sampleTask } from '../../src/drivers/interfaces/sample-task.test-support.js';
import { managementConformance } from '../../src/drivers/interfaces/management.case.js';
import { powerConformance } from '../../src/drivers/interfaces/power.case.js';
import { IpmiClient } from '../../src/drivers/ipmi/client.js';
import { bmcAddress, bmcDeviceId, injectNmi, ipmiManagement } from '../../src/drivers/ipmi/management.js';
import { ipmiPower } from '../../src/drivers/ipmi/power.js';
import { seededRandom } from '../../src/shared/seeded-random.js';

const machine: Machine = simulatedMachine({ name: 'sim-0', profile: simulatedProfile(0), username: 'admin', password: 'secret-17' });
/** `ipmi_port` is the emulator's, once it has bound one (port 0: any free port, no race for it). */
const driverInfo: JsonObject = { ipmi_address: '127.0.0.1', ipmi_port: 0, ipmi_username: 'admin', ipmi_password: 'secret-17', ipmi_cipher_suite: 17 };
const node = { driver: 'ipmi', driver_info: driverInfo };

let server: IpmiServer;
const clients: IpmiClient[] = [];
function newClient(settings: ConstructorParameters<typeof IpmiClient>[0] = {}): IpmiClient {
  const c = new IpmiClient({ min_command_interval_s: 0.02, retransmit_initial_s: 0.25, ...settings });
  clients.push(c);
  return c;
}
const client = newClient();

beforeAll(async () => {
  // Lost packets (drop_rate) are drawn from a fixed seed: every run loses the same ones.
  server = await startIpmiServer({ host: '127.0.0.1', machines: [machine], mode: { kind: 'port-per-machine', portBase: 0 }, random: seededRandom(17) });
  driverInfo.ipmi_port = server.ports.get('sim-0') as number;
  expect(driverInfo.ipmi_port).toBeGreaterThan(0);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.closeAll()));
  await server?.close();
  await machine.close();
});

powerConformance('ipmitool, cipher suite 17, against the Ingot IPMI emulator', () => ipmiPower({ client, pollIntervalMs: 50 }), node);
// NOTE: emulated machines have no "safe mode" boot (src/bmc/machine.ts MachineBootDevice): the emulator reads
// selector 3 (hard disk, safe mode) as the disk and answers "disk" on read-back, so the read-back suite runs
// without `safe`; `safe` is checked below to reach the machine as a disk boot.
managementConformance(
  'ipmitool, cipher suite 17, against the Ingot IPMI emulator',
  () => ipmiManagement({ client, bootDevices: ['pxe', 'disk', 'cdrom', 'bios'] }),
  { remembers: true, nodeFields: node },
);

describe('IPMI client with cipher suite 17 against the Ingot IPMI emulator', () => {
  it('uses suite 17 by default without a fallback', async () => {
    const c = newClient();
    const { ipmi_cipher_suite: _suite, ...info } = driverInfo;
    await machine.act('off');
    expect(await ipmiPower({ client: c }).getPowerState(sampleTask({ ...node, driver_info: info }))).toBe('power off');
    expect(c.stats.openSessionRequests).toBe(1);
    expect(c.stats.sessionsEstablished).toBe(1);
  });

  it('drives the machine: power, boot override with the EFI bit, NMI', async () => {
    const task = sampleTask({ ...node, boot_mode: 'uefi' });
    await ipmiManagement({ client }).setBootDevice(task, 'pxe', true);
    expect(machine.bootOverride()).toEqual({ device: 'pxe', persistence: 'continuous', mode: 'uefi' });
    await ipmiPower({ client, pollIntervalMs: 50 }).setPowerState(task, 'power on');
    expect(await machine.power()).toBe('on');
    await injectNmi(task, client);
    await ipmiPower({ client, pollIntervalMs: 50 }).setPowerState(task, 'soft power off');
    expect(await machine.power()).toBe('off');
  });

  it('reads the BMC identity and its LAN address', async () => {
    const task = sampleTask(node);
    expect(await bmcDeviceId(task, client)).toEqual({ manufacturer_id: 32473, product_id: 1, firmware: '1.00', ipmi_version: '2.0' });
    expect(await bmcAddress(task, client)).toBe('127.0.0.1');
  });

  it('sends safe as a disk boot', async () => {
    await ipmiManagement({ client }).setBootDevice(sampleTask(node), 'safe', false);
    expect(machine.bootOverride()).toMatchObject({ device: 'disk', persistence: 'once' });
  });

  it('reports a wrong password clearly', async () => {
    const c = newClient();
    await expect(ipmiPower({ client: c }).getPowerState(sampleTask({ ...node, driver_info: { ...driverInfo, ipmi_password: 'nope' } }))).rejects.toMatchObject({
      code: 'PowerStateFailure',
      message: expect.stringMatching(/rejected the password of user "admin" .*check ipmi_password/),
    });
  });

  it('keeps working through packet loss by retransmitting', async () => {
    const c = newClient({ retransmit_initial_s: 0.1, command_retry_timeout_s: 20 });
    machine.faults = { ...machine.faults, drop_rate: 0.3 };
    try {
      for (let i = 0; i < 15; i++) expect(await ipmiPower({ client: c }).getPowerState(sampleTask(node))).toMatch(/^power (on|off)$/);
    } finally {
      machine.faults = { ...machine.faults, drop_rate: 0 };
    }
    expect(c.stats.retransmissions).toBeGreaterThan(0);
  });
});
