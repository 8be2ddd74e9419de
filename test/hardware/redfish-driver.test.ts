/**
 * The Redfish driver against Ingot's Redfish BMC emulator over real sockets (HTTPS with the emulator's
 * self-signed certificate as CA bundle, and HTTP with asynchronous actions): the power and management
 * conformance suites, out-of-band inspection of simulated machines, virtual media, and a hung machine.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedfishEmulator, type RunningRedfishEmulator } from '../../src/bmc/redfish/emulator.js';
import type { Machine } from '../../src/bmc/machine.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';
import type { JsonObject } from '../../src/domain/node.js';
import { sampleTask } from '../../src/drivers/interfaces/sample-task.test-support.js';
import { managementConformance } from '../../src/drivers/interfaces/management.case.js';
import { powerConformance } from '../../src/drivers/interfaces/power.case.js';
import { redfishInspect } from '../../src/drivers/redfish/inspect.js';
import { redfishManagement } from '../../src/drivers/redfish/management.js';
import { RedfishClientPool } from '../../src/drivers/redfish/pool.js';
import { redfishPower } from '../../src/drivers/redfish/power.js';
import { ejectMedia, insertMedia } from '../../src/drivers/redfish/virtual-media.js';

const GIB = 1024 ** 3;
const FLEET = 5;

const machines: Machine[] = Array.from({ length: FLEET }, (_, i) =>
  simulatedMachine({ name: `sim-${i}`, profile: simulatedProfile(i), username: `admin${i}`, password: `pw-${i}` }));
const bootOnly = simulatedMachine({ name: 'boot-0', profile: simulatedProfile(4, 'boot'), username: 'boot', password: 'pw-boot' });
const hung = simulatedMachine({ name: 'hung-0', profile: simulatedProfile(0, 'hung'), username: 'hung', password: 'pw-hung', faults: { hang_power: true } });

let tlsBmc: RunningRedfishEmulator | undefined;
let asyncBmc: RunningRedfishEmulator | undefined;
let caDir = '';
const pool = new RedfishClientPool({ settings: { connection_retry_interval_ms: 20, power_poll_interval_ms: 50, task_poll_interval_ms: 50 } });

/** driver_info of machine `i` on the HTTPS emulator; filled in once it listens (the suites read it lazily). */
const tlsInfo: JsonObject = {};
const asyncInfo: JsonObject = {};

/** The state of every task `m`'s user has on `bmc`, read over plain Redfish. */
async function taskStates(bmc: RunningRedfishEmulator, m: Machine): Promise<string[]> {
  const headers = { authorization: `Basic ${Buffer.from(`${m.username}:${m.password}`).toString('base64')}` };
  const read = async <T>(uri: string) => (await (await fetch(`${bmc.url}${uri}`, { headers })).json()) as T;
  const list = await read<{ Members: { '@odata.id': string }[] }>('/redfish/v1/TaskService/Tasks');
  return Promise.all(list.Members.map(async (t) => (await read<{ TaskState: string }>(t['@odata.id'])).TaskState));
}

function driverInfo(bmc: RunningRedfishEmulator, m: Machine, extra: JsonObject = {}): JsonObject {
  return { redfish_address: bmc.url, redfish_username: m.username, redfish_password: m.password, ...extra };
}

beforeAll(async () => {
  tlsBmc = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines: [...machines, bootOnly, hung], tls: 'self-signed' });
  asyncBmc = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines, tls: false, asyncActions: true, taskDurationMs: 150 });
  caDir = mkdtempSync(join(tmpdir(), 'ingot-redfish-driver-'));
  const caFile = join(caDir, 'bmc-ca.pem');
  if (!tlsBmc.certificate) throw new Error('the emulator started with tls: self-signed returned no certificate');
  writeFileSync(caFile, tlsBmc.certificate);
  Object.assign(tlsInfo, driverInfo(tlsBmc, machines[0] as Machine, { redfish_verify_ca: caFile }));
  // Machine 1 on the asynchronous emulator, with its system named explicitly and basic auth.
  Object.assign(asyncInfo, driverInfo(asyncBmc, machines[1] as Machine, { redfish_system_id: '/redfish/v1/Systems/sim-1', redfish_auth_type: 'basic' }));
});

afterAll(async () => {
  await pool.close();
  await tlsBmc?.close();
  await asyncBmc?.close();
  if (caDir) rmSync(caDir, { recursive: true, force: true });
});

const nodeTls = { driver: 'redfish', driver_info: tlsInfo };
const nodeAsync = { driver: 'redfish', driver_info: asyncInfo };

powerConformance('redfish over HTTPS (session auth)', () => redfishPower({ pool }), nodeTls);
managementConformance('redfish over HTTPS (session auth)', () => redfishManagement({ pool }), { remembers: true, nodeFields: nodeTls });
powerConformance('redfish with 202 task monitors (basic auth)', () => redfishPower({ pool }), nodeAsync);
managementConformance('redfish with 202 task monitors (basic auth)', () => redfishManagement({ pool }), { remembers: true, nodeFields: nodeAsync });

describe('redfish driver against the emulator', () => {
  it('power changes reach the simulated machine', async () => {
    const m = machines[0] as Machine;
    const task = sampleTask(nodeTls);
    await redfishPower({ pool }).setPowerState(task, 'power on');
    expect(await m.power()).toBe('on');
    await redfishPower({ pool }).setPowerState(task, 'soft power off');
    expect(await m.power()).toBe('off');
  });

  it('the boot device lands on the simulated machine with the node boot mode', async () => {
    const m = bootOnly;
    expect(m.bootOverride().mode).toBe('legacy');
    const task = sampleTask({ driver: 'redfish', driver_info: driverInfo(tlsBmc as RunningRedfishEmulator, m, { redfish_verify_ca: false }), boot_mode: 'uefi' });
    await redfishManagement({ pool }).setBootDevice(task, 'pxe', false);
    expect(m.bootOverride()).toEqual({ device: 'pxe', persistence: 'once', mode: 'uefi' });
    await redfishManagement({ pool }).setBootDevice({ ...task, node: { ...task.node, boot_mode: null } }, 'disk', true);
    expect(m.bootOverride()).toEqual({ device: 'disk', persistence: 'continuous', mode: 'uefi' });
  });

  it('inspection out of band yields each profile’s CPUs, memory, disk and MACs', async () => {
    for (const m of machines) {
      const task = sampleTask({ driver: 'redfish', driver_info: driverInfo(tlsBmc as RunningRedfishEmulator, m, { redfish_verify_ca: false }), properties: { vendor: 'kept' } });
      await redfishInspect({ pool }).validate(task);
      expect(await redfishInspect({ pool }).inspectHardware(task)).toBe('done');
      const p = m.profile;
      const rootDisk = Math.min(...p.disks.map((d) => d.size_bytes).filter((s) => s >= 4 * GIB));
      expect(task.node.properties, m.name).toEqual({
        vendor: 'kept',
        cpus: p.cpu.count,
        cpu_arch: p.cpu.architecture,
        memory_mb: p.memory_mib,
        local_gb: Math.floor(rootDisk / GIB - 1),
        capabilities: `boot_mode:${p.boot_mode}`,
      });
      expect(task.reportedPorts, m.name).toEqual(p.nics.map((n) => ({ address: n.mac, pxe_enabled: n.pxe_enabled })));
    }
  });

  it('virtual media is inserted and ejected, also through task monitors', async () => {
    for (const [bmc, m] of [[tlsBmc, machines[2]], [asyncBmc, machines[3]]] as [RunningRedfishEmulator, Machine][]) {
      const task = sampleTask({ driver: 'redfish', driver_info: driverInfo(bmc, m, { redfish_verify_ca: false }) });
      await insertMedia(task, 'http://127.0.0.1:8080/boot.iso', 'cd', { pool });
      // The asynchronous emulator answers 202 with a task that runs 150 ms: the client returns only once
      // the task monitor says it ended.
      if (bmc === asyncBmc) expect(await taskStates(bmc, m)).toEqual(['Completed']);
      expect(m.virtualMedia()).toMatchObject({ image: 'http://127.0.0.1:8080/boot.iso', inserted: true });
      await insertMedia(task, 'http://127.0.0.1:8080/other.iso', 'cd', { pool });
      expect(m.virtualMedia()).toMatchObject({ image: 'http://127.0.0.1:8080/other.iso', inserted: true });
      await insertMedia(task, 'http://127.0.0.1:8080/config.img', 'floppy', { pool });
      await ejectMedia(task, undefined, { pool });
      expect(m.virtualMedia()).toMatchObject({ image: null, inserted: false });
    }
  });

  it('a machine that ignores power requests fails with PowerStateFailure at the deadline', async () => {
    const task = sampleTask({ driver: 'redfish', driver_info: driverInfo(tlsBmc as RunningRedfishEmulator, hung, { redfish_verify_ca: false }) });
    const err = await redfishPower({ pool }).setPowerState(task, 'power on', 0.3).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'PowerStateFailure' });
    expect((err as Error).message).toContain(`did not reach 'power on' within 0.3 s: PowerState was still "Off"`);
  });

  it('verify_ca True rejects the emulator’s self-signed certificate with a clear message', async () => {
    const task = sampleTask({ driver: 'redfish', driver_info: driverInfo(tlsBmc as RunningRedfishEmulator, machines[0] as Machine, { redfish_verify_ca: true }) });
    await expect(redfishPower({ pool }).getPowerState(task)).rejects.toThrow(/TLS certificate verification failed .*redfish_verify_ca/);
  });
});
