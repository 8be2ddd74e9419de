/**
 * The `ipmi` hardware type's power and management interfaces, over Ingot's own RMCP+ client, against a
 * real BMC implementation: OpenIPMI's ipmi_sim (cipher suite 3; it has no suite 17).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BootDevice, JsonObject } from '../../src/domain/node.js';
import { sampleTask } from '../../src/drivers/interfaces/sample-task.test-support.js';
import { managementConformance } from '../../src/drivers/interfaces/management.case.js';
import { powerConformance } from '../../src/drivers/interfaces/power.case.js';
import { IpmiClient } from '../../src/drivers/ipmi/client.js';
import { bmcAddress, injectNmi, ipmiManagement } from '../../src/drivers/ipmi/management.js';
import { ipmiPower } from '../../src/drivers/ipmi/power.js';
import { silentUdpPort, startIpmiSim } from './ipmi-sim-harness.js';
import type { IpmiSim } from './ipmi-sim-harness.js';
import { startUdpFront } from '../support/udp-front.js';

let sim: IpmiSim;
// The BMC's address, known before the suites are declared so that the conformance suites carry it in
// driver_info: a relay of the test process in front of ipmi_sim, which stays put when the BMC restarts
// on another port.
const front = await startUdpFront(() => sim.port);
const port = front.port;
const driverInfo: JsonObject = { ipmi_address: '127.0.0.1', ipmi_port: port, ipmi_username: 'admin', ipmi_password: 'password', ipmi_cipher_suite: 3 };
const node = { driver: 'ipmi', driver_info: driverInfo };

/** Short spacing and retransmission so the suite runs quickly; the semantics are the production ones. */
let client: IpmiClient;
const extraClients: IpmiClient[] = [];

function newClient(settings: ConstructorParameters<typeof IpmiClient>[0] = {}): IpmiClient {
  const c = new IpmiClient({ min_command_interval_s: 0.02, retransmit_initial_s: 0.25, ...settings });
  extraClients.push(c);
  return c;
}

beforeAll(async () => {
  sim = await startIpmiSim();
  client = new IpmiClient({ min_command_interval_s: 0.02, retransmit_initial_s: 0.25 });
});
afterAll(async () => {
  await client?.closeAll();
  await Promise.all(extraClients.map((c) => c.closeAll()));
  await sim?.close();
  await front.close();
});

powerConformance('ipmitool against ipmi_sim', () => ipmiPower({ client, pollIntervalMs: 100 }), node);

// NOTE: ipmi_sim maps only the boot device selectors none/pxe/hard disk/cdrom/bios (lanserv/bmc_chassis.c
// boot_map) and never reports the persistent bit, so the conformance suite runs with those four devices and
// without read-back of persistence; `safe` is checked below to reach the BMC with selector 3.
const SIM_DEVICES: BootDevice[] = ['pxe', 'disk', 'cdrom', 'bios'];
managementConformance(
  'ipmitool against ipmi_sim (devices ipmi_sim implements)',
  () => ipmiManagement({ client, bootDevices: SIM_DEVICES }),
  { remembers: false, nodeFields: node },
);

describe('ipmitool power against ipmi_sim', () => {
  const power = () => ipmiPower({ client, pollIntervalMs: 100 });

  it('powers on and off, reading the state from Get Chassis Status', async () => {
    const task = sampleTask(node);
    await power().setPowerState(task, 'power on');
    expect(await sim.power()).toBe('on');
    expect(await power().getPowerState(task)).toBe('power on');
    await power().setPowerState(task, 'power off');
    expect(await sim.power()).toBe('off');
    expect(await power().getPowerState(task)).toBe('power off');
  });

  it('sees a change made behind its back', async () => {
    await sim.setPower(true);
    expect(await power().getPowerState(sampleTask(node))).toBe('power on');
    await sim.setPower(false);
    expect(await power().getPowerState(sampleTask(node))).toBe('power off');
  });

  it('soft power off sends the ACPI soft shutdown', async () => {
    await sim.setPower(true);
    const before = (await sim.chassisLog()).length;
    await power().setPowerState(sampleTask(node), 'soft power off');
    expect((await sim.chassisLog()).slice(before)).toEqual(['shutdown 1']);
    expect(await sim.power()).toBe('off');
  });

  it('hard reboot power cycles a running machine and ends on', async () => {
    await sim.setPower(true);
    const before = (await sim.chassisLog()).length;
    await power().reboot(sampleTask(node), false);
    // ipmi_sim implements a power cycle as power 0, then power 1 a second later.
    expect((await sim.chassisLog()).slice(before)).toEqual(['power 0', 'power 1']);
    expect(await sim.power()).toBe('on');
  });

  it('soft reboot: ACPI off, then on', async () => {
    await sim.setPower(true);
    const before = (await sim.chassisLog()).length;
    await power().reboot(sampleTask(node), true);
    expect((await sim.chassisLog()).slice(before)).toEqual(['shutdown 1', 'power 1']);
    expect(await sim.power()).toBe('on');
  });

  it('stops waiting for a power state when the task is aborted', async () => {
    const ac = new AbortController();
    await sim.setPower(false);
    // ipmi_sim's power file is ours: keep it off so "power on" never shows, then abort the wait.
    const stuck = ipmiPower({ client: { request: (b, c, s) => client.request(b, c, s).then(async (r) => (c.cmd === 0x02 ? (await sim.setPower(false), r) : r)) }, pollIntervalMs: 50 });
    const pending = stuck.setPowerState(sampleTask(node, ac.signal), 'power on', 30);
    setTimeout(() => ac.abort(new Error('conductor shutting down')), 300);
    await expect(pending).rejects.toThrow('conductor shutting down');
  });

  it('fails with PowerStateFailure naming the BMC, the state and the time when the state never comes', async () => {
    const stuck = ipmiPower({ client: { request: (b, c, s) => client.request(b, c, s).then(async (r) => (c.cmd === 0x02 ? (await sim.setPower(false), r) : r)) }, pollIntervalMs: 100 });
    await expect(stuck.setPowerState(sampleTask(node), 'power on', 1)).rejects.toMatchObject({
      code: 'PowerStateFailure',
      message: expect.stringMatching(new RegExp(`BMC 127\\.0\\.0\\.1:${port} did not reach power on .*within 1 s: the power state was still power off after \\d+\\.\\d s`)),
    });
  });
});

describe('ipmitool management against ipmi_sim', () => {
  const mgmt = () => ipmiManagement({ client });

  it('sets and reads back pxe and disk', async () => {
    await mgmt().setBootDevice(sampleTask(node), 'pxe', false);
    expect(await mgmt().getBootDevice(sampleTask(node))).toMatchObject({ boot_device: 'pxe' });
    await mgmt().setBootDevice(sampleTask(node), 'disk', true);
    expect(await mgmt().getBootDevice(sampleTask(node))).toMatchObject({ boot_device: 'disk' });
    // chassis_control receives ipmi_sim's names for selectors 1 and 2.
    expect((await sim.chassisLog()).filter((l) => l.startsWith('boot ')).slice(-2)).toEqual(['boot pxe', 'boot default']);
  });

  it('sends safe as selector 3, which ipmi_sim refuses with a named completion code', async () => {
    await expect(mgmt().setBootDevice(sampleTask(node), 'safe', false)).rejects.toMatchObject({
      code: 'DriverOperationError',
      message: expect.stringContaining('completion code 0xFF (unspecified error)'),
    });
  });

  it('rejects an unsupported device before talking to the BMC', async () => {
    const sent = client.stats.commands;
    await expect(mgmt().setBootDevice(sampleTask(node), 'wanboot', false)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    expect(client.stats.commands).toBe(sent);
  });

  it('injects an NMI (ipmi_sim does not implement it and says so) and reads the BMC address', async () => {
    await expect(injectNmi(sampleTask(node), client)).rejects.toThrow(/Chassis Control: completion code 0xCC \(invalid data field in request\)/);
    // ipmi_sim has no LAN configuration behind it and reports 0.0.0.0.
    expect(await bmcAddress(sampleTask(node), client)).toBe('0.0.0.0');
  });
});

describe('IPMI client against ipmi_sim', () => {
  afterEach(async () => {
    await sim.setPower(false);
  });

  it('reuses one session for many commands', async () => {
    const c = newClient();
    const power = ipmiPower({ client: c, pollIntervalMs: 100 });
    const task = sampleTask(node);
    await power.getPowerState(task);
    await power.setPowerState(task, 'power on');
    await power.getPowerState(task);
    await ipmiManagement({ client: c }).setBootDevice(task, 'pxe', false);
    await ipmiManagement({ client: c }).getBootDevice(task);
    expect(c.stats.openSessionRequests).toBe(1);
    expect(c.stats.sessionsEstablished).toBe(1);
    expect(c.stats.commands).toBeGreaterThanOrEqual(7); // privilege level + the commands above
    expect(c.openSessions).toBe(1);
  });

  it('asks for suite 17 by default and falls back to 3, remembering the choice', async () => {
    const c = newClient();
    const { ipmi_cipher_suite: _suite, ...info } = driverInfo;
    const task = sampleTask({ ...node, driver_info: info });
    expect(await ipmiPower({ client: c }).getPowerState(task)).toBe('power off');
    expect(c.stats.openSessionRequests).toBe(2); // 17 refused, then 3
    await c.closeAll();
    const c2 = newClient();
    await ipmiPower({ client: c2 }).getPowerState(task);
    expect(c2.stats.openSessionRequests).toBe(2); // a new client learns again
  });

  it('refuses an explicit suite 17 with a clear error', async () => {
    const c = newClient();
    await expect(ipmiPower({ client: c }).getPowerState(sampleTask({ ...node, driver_info: { ...driverInfo, ipmi_cipher_suite: 17 } }))).rejects.toMatchObject({
      code: 'PowerStateFailure',
      message: expect.stringMatching(/does not offer cipher suite 17: Open Session status 0x04 \(invalid authentication algorithm\)/),
    });
  });

  it('reports a wrong password clearly, without retrying', async () => {
    const c = newClient();
    const task = sampleTask({ ...node, driver_info: { ...driverInfo, ipmi_password: 'wrong' } });
    await expect(ipmiPower({ client: c }).getPowerState(task)).rejects.toMatchObject({
      code: 'PowerStateFailure',
      message: expect.stringMatching(new RegExp(`BMC 127\\.0\\.0\\.1:${port} rejected the password of user "admin" .*check ipmi_password`)),
    });
    expect(c.stats.openSessionRequests).toBe(1);
  });

  it('reports an unknown user clearly', async () => {
    const c = newClient();
    const task = sampleTask({ ...node, driver_info: { ...driverInfo, ipmi_username: 'nobody' } });
    await expect(ipmiManagement({ client: c }).getBootDevice(task)).rejects.toMatchObject({
      code: 'DriverOperationError',
      message: expect.stringMatching(/does not know user "nobody" \(RAKP 2 status 0x0D \(unauthorized name\)\): check ipmi_username/),
    });
  });

  it('gives the timeout error when nothing answers, within the retry window', async () => {
    const c = newClient({ command_retry_timeout_s: 1 });
    const silent = await silentUdpPort();
    const task = sampleTask({ ...node, driver_info: { ...driverInfo, ipmi_port: silent.port } });
    try {
      await expect(ipmiPower({ client: c }).getPowerState(task)).rejects.toMatchObject({
        code: 'PowerStateFailure',
        message: expect.stringMatching(new RegExp(`BMC 127\\.0\\.0\\.1:${silent.port} did not answer .* check ipmi_address/ipmi_port and that IPMI over LAN is enabled`)),
      });
    } finally {
      await silent.close();
    }
    expect(c.stats.retransmissions).toBeGreaterThan(0);
  });

  it('opens a new session transparently when the BMC forgot the old one', async () => {
    const c = newClient();
    const power = ipmiPower({ client: c });
    expect(await power.getPowerState(sampleTask(node))).toBe('power off');
    await sim.close(); // a BMC reset: the new ipmi_sim knows no session
    sim = await startIpmiSim();
    await sim.setPower(true);
    expect(await power.getPowerState(sampleTask(node))).toBe('power on');
    expect(c.stats.sessionsEstablished).toBe(2);
  });

  it('closes idle sessions and opens a new one when needed', async () => {
    const c = newClient({ session_idle_timeout_s: 0.2 });
    const power = ipmiPower({ client: c });
    await power.getPowerState(sampleTask(node));
    expect(c.openSessions).toBe(1);
    const commands = c.stats.commands;
    await expect.poll(() => c.openSessions, { timeout: 10_000 }).toBe(0);
    expect(c.stats.commands).toBe(commands + 1); // Close Session
    await power.getPowerState(sampleTask(node));
    expect(c.stats.sessionsEstablished).toBe(2);
  });

  it('refuses work after closeAll', async () => {
    const c = newClient();
    await ipmiPower({ client: c }).getPowerState(sampleTask(node));
    await c.closeAll();
    expect(c.openSessions).toBe(0);
    await expect(ipmiPower({ client: c }).getPowerState(sampleTask(node))).rejects.toThrow(/shut down/);
  });
});
