import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { bootDeviceOf, getBootMode, injectNmi, redfishManagement, setBootMode, supportedBootDevices } from './management.js';
import { RedfishClientPool } from './pool.js';
import { redfishPower, supportedPowerActions } from './power.js';
import { ejectMedia, insertMedia } from './virtual-media.js';

/** A minimal one-system BMC whose allowed reset types and behaviour each test chooses. */
interface FakeBmc {
  url: string;
  power: 'On' | 'Off';
  resets: string[];
  patches: unknown[];
  media: { Image: string | null; Inserted: boolean };
  mediaCalls: string[];
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function fakeBmc(opts: { allowed?: string[]; actionInfo?: boolean; hang?: boolean; power?: 'On' | 'Off'; mediaActions?: boolean } = {}): Promise<FakeBmc> {
  const app = Fastify();
  const bmc: FakeBmc = { url: '', power: opts.power ?? 'Off', resets: [], patches: [], media: { Image: null, Inserted: false }, mediaCalls: [] };
  const boot = { BootSourceOverrideTarget: 'None', BootSourceOverrideEnabled: 'Disabled', BootSourceOverrideMode: 'Legacy' };
  const action: Record<string, unknown> = { target: '/redfish/v1/Systems/s1/Actions/ComputerSystem.Reset' };
  if (opts.actionInfo) action['@Redfish.ActionInfo'] = '/redfish/v1/Systems/s1/ResetActionInfo';
  else if (opts.allowed) action['ResetType@Redfish.AllowableValues'] = opts.allowed;
  app.get('/redfish/v1/', async () => ({ Systems: { '@odata.id': '/redfish/v1/Systems' } }));
  app.get('/redfish/v1/Systems', async () => ({ Members: [{ '@odata.id': '/redfish/v1/Systems/s1' }] }));
  app.get('/redfish/v1/Systems/s1', async () => ({
    '@odata.id': '/redfish/v1/Systems/s1',
    PowerState: bmc.power,
    Boot: { ...boot, 'BootSourceOverrideTarget@Redfish.AllowableValues': ['None', 'Pxe', 'Hdd'], 'BootSourceOverrideMode@Redfish.AllowableValues': ['UEFI', 'Legacy'] },
    Actions: { '#ComputerSystem.Reset': action },
    Links: { ManagedBy: [{ '@odata.id': '/redfish/v1/Managers/m1' }] },
  }));
  app.get('/redfish/v1/Systems/s1/ResetActionInfo', async () => ({ Parameters: [{ Name: 'ResetType', AllowableValues: opts.allowed ?? [] }] }));
  app.post('/redfish/v1/Systems/s1/Actions/ComputerSystem.Reset', async (req, reply) => {
    const type = (req.body as { ResetType: string }).ResetType;
    bmc.resets.push(type);
    if (!opts.hang) {
      if (type === 'On' || type === 'ForceOn') bmc.power = 'On';
      else if (type === 'ForceOff' || type === 'GracefulShutdown') bmc.power = 'Off';
      else if (type === 'PushPowerButton') bmc.power = bmc.power === 'On' ? 'Off' : 'On';
      else if (type === 'ForceRestart' || type === 'GracefulRestart' || type === 'PowerCycle') bmc.power = 'On';
    }
    return reply.code(204).send();
  });
  app.patch('/redfish/v1/Systems/s1', async (req, reply) => {
    bmc.patches.push(req.body);
    Object.assign(boot, (req.body as { Boot?: object }).Boot ?? {});
    return reply.code(204).send();
  });
  const vm = '/redfish/v1/Managers/m1/VirtualMedia/Cd';
  app.get('/redfish/v1/Managers/m1', async () => ({ VirtualMedia: { '@odata.id': '/redfish/v1/Managers/m1/VirtualMedia' } }));
  app.get('/redfish/v1/Managers/m1/VirtualMedia', async () => ({ Members: [{ '@odata.id': vm }] }));
  app.get(vm, async () => ({
    '@odata.id': vm, MediaTypes: ['CD', 'DVD'], ...bmc.media,
    ...(opts.mediaActions ? { Actions: { '#VirtualMedia.InsertMedia': { target: `${vm}/Actions/VirtualMedia.InsertMedia` }, '#VirtualMedia.EjectMedia': { target: `${vm}/Actions/VirtualMedia.EjectMedia` } } } : {}),
  }));
  app.patch(vm, async (req, reply) => {
    const body = req.body as { Image: string | null; Inserted: boolean };
    bmc.mediaCalls.push(`PATCH ${JSON.stringify(body)}`);
    bmc.media = { Image: body.Image, Inserted: body.Inserted };
    return reply.code(204).send();
  });
  app.post(`${vm}/Actions/VirtualMedia.InsertMedia`, async (req, reply) => {
    const body = req.body as { Image: string };
    bmc.mediaCalls.push(`InsertMedia ${body.Image}`);
    bmc.media = { Image: body.Image, Inserted: true };
    return reply.code(204).send();
  });
  app.post(`${vm}/Actions/VirtualMedia.EjectMedia`, async (_req, reply) => {
    bmc.mediaCalls.push('EjectMedia');
    bmc.media = { Image: null, Inserted: false };
    return reply.code(204).send();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  bmc.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const pool = new RedfishClientPool({ settings: { connection_retry_interval_ms: 5, power_poll_interval_ms: 20 } });
  cleanups.push(async () => {
    await pool.close();
    await app.close();
  });
  Object.assign(bmc, { pool });
  return bmc;
}

const poolOf = (bmc: FakeBmc) => (bmc as FakeBmc & { pool: RedfishClientPool }).pool;
const taskOf = (bmc: FakeBmc, fields: Parameters<typeof sampleTask>[0] = {}) => sampleTask({ driver: 'redfish', driver_info: { redfish_address: bmc.url }, ...fields });

describe('Redfish power', () => {
  it('uses the reset types the system allows, falling back to PushPowerButton', async () => {
    const bmc = await fakeBmc({ allowed: ['PushPowerButton', 'GracefulRestart'] });
    const power = redfishPower({ pool: poolOf(bmc) });
    const task = taskOf(bmc);
    await power.setPowerState(task, 'power on');
    expect(await power.getPowerState(task)).toBe('power on');
    await power.setPowerState(task, 'power on'); // already on: no button press
    await power.reboot(task, true);
    await power.reboot(task, false); // no ForceRestart/PowerCycle: off, then on
    await power.setPowerState(task, 'power off');
    expect(bmc.resets).toEqual(['PushPowerButton', 'GracefulRestart', 'PushPowerButton', 'PushPowerButton', 'PushPowerButton']);
    expect(bmc.power).toBe('Off');
    expect(await power.getSupportedPowerStates(task)).toEqual(['power on', 'power off', 'soft power off', 'rebooting', 'soft rebooting']);
  });

  it('prefers On, ForceOff, GracefulShutdown and ForceRestart, read from ActionInfo', async () => {
    const bmc = await fakeBmc({ actionInfo: true, allowed: ['On', 'ForceOff', 'GracefulShutdown', 'ForceRestart', 'PushPowerButton'] });
    const power = redfishPower({ pool: poolOf(bmc) });
    const task = taskOf(bmc);
    await power.setPowerState(task, 'power on');
    await power.reboot(task, false);
    await power.setPowerState(task, 'soft power off');
    await power.setPowerState(task, 'rebooting');
    await power.setPowerState(task, 'power off');
    expect(bmc.resets).toEqual(['On', 'ForceRestart', 'GracefulShutdown', 'On', 'ForceOff']);
  });

  it('says which reset types it needed when none is allowed', async () => {
    const bmc = await fakeBmc({ allowed: ['On'], power: 'On' });
    const err = await redfishPower({ pool: poolOf(bmc) }).setPowerState(taskOf(bmc), 'power off').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'PowerStateFailure' });
    expect((err as Error).message).toBe(`Redfish BMC ${bmc.url} system /redfish/v1/Systems/s1 cannot power off: it allows ResetType On, and power off needs one of ForceOff, PushPowerButton.`);
    expect(supportedPowerActions(['On'])).toEqual(['power on']);
  });

  it('fails with PowerStateFailure naming the BMC, target, last state and time when the machine does not follow', async () => {
    const bmc = await fakeBmc({ hang: true });
    const err = await redfishPower({ pool: poolOf(bmc) }).setPowerState(taskOf(bmc), 'power on', 0.2).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'PowerStateFailure' });
    expect((err as Error).message).toMatch(new RegExp(`^Redfish BMC ${bmc.url} system /redfish/v1/Systems/s1 did not reach 'power on' within 0.2 s: PowerState was still "Off" after 0\\.[2-9] s\\.$`));
  });

  it('rejects an unknown target state', async () => {
    const bmc = await fakeBmc();
    await expect(redfishPower({ pool: poolOf(bmc) }).setPowerState(taskOf(bmc), 'standby' as never)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
  });
});

describe('Redfish management', () => {
  it('sets the boot device with the node boot mode, and reads it back', async () => {
    const bmc = await fakeBmc();
    const m = redfishManagement({ pool: poolOf(bmc) });
    const task = taskOf(bmc, { boot_mode: 'uefi' });
    expect(await m.getSupportedBootDevices(task)).toEqual(['pxe', 'disk']);
    expect(await m.getBootDevice(task)).toEqual({ boot_device: null, persistent: null });
    await m.setBootDevice(task, 'pxe', false);
    expect(bmc.patches).toEqual([{ Boot: { BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Once', BootSourceOverrideMode: 'UEFI' } }]);
    expect(await m.getBootDevice(task)).toEqual({ boot_device: 'pxe', persistent: false });
    await m.setBootDevice(taskOf(bmc), 'disk', true);
    expect(bmc.patches[1]).toEqual({ Boot: { BootSourceOverrideTarget: 'Hdd', BootSourceOverrideEnabled: 'Continuous' } });
    await expect(m.setBootDevice(task, 'cdrom', true)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
  });

  it('reads and sets the boot mode, and injects an NMI only when allowed', async () => {
    const bmc = await fakeBmc({ allowed: ['On', 'ForceOff', 'Nmi'] });
    const opts = { pool: poolOf(bmc) };
    const task = taskOf(bmc);
    expect(await getBootMode(task, opts)).toBe('bios');
    await setBootMode(task, 'uefi', opts);
    expect(await getBootMode(task, opts)).toBe('uefi');
    await injectNmi(task, opts);
    expect(bmc.resets).toEqual(['Nmi']);
    const strict = await fakeBmc({ allowed: ['On'] });
    await expect(injectNmi(taskOf(strict), { pool: poolOf(strict) })).rejects.toThrow(/cannot inject an NMI/);
  });

  it('maps Boot objects', () => {
    expect(supportedBootDevices({})).toEqual(['pxe', 'disk', 'cdrom', 'bios']);
    expect(bootDeviceOf({ Boot: { BootSourceOverrideTarget: 'Cd', BootSourceOverrideEnabled: 'Continuous' } })).toEqual({ boot_device: 'cdrom', persistent: true });
  });
});

describe('Redfish virtual media', () => {
  it('inserts and ejects through the actions when offered', async () => {
    const bmc = await fakeBmc({ mediaActions: true });
    const task = taskOf(bmc);
    await insertMedia(task, 'http://10.0.0.1/boot.iso', 'cd', { pool: poolOf(bmc) });
    await insertMedia(task, 'http://10.0.0.1/boot.iso', 'cd', { pool: poolOf(bmc) }); // same image: nothing to do
    await insertMedia(task, 'http://10.0.0.1/other.iso', 'cd', { pool: poolOf(bmc) });
    await ejectMedia(task, undefined, { pool: poolOf(bmc) });
    expect(bmc.mediaCalls).toEqual(['InsertMedia http://10.0.0.1/boot.iso', 'EjectMedia', 'InsertMedia http://10.0.0.1/other.iso', 'EjectMedia']);
  });

  it('falls back to PATCH of Image and Inserted, and says when there is no such device', async () => {
    const bmc = await fakeBmc();
    const task = taskOf(bmc);
    await insertMedia(task, 'http://10.0.0.1/boot.iso', 'cd', { pool: poolOf(bmc) });
    await ejectMedia(task, 'cd', { pool: poolOf(bmc) });
    expect(bmc.mediaCalls).toEqual(['PATCH {"Image":"http://10.0.0.1/boot.iso","Inserted":true,"WriteProtected":true}', 'PATCH {"Image":null,"Inserted":false}']);
    await expect(insertMedia(task, 'http://x/f.img', 'floppy', { pool: poolOf(bmc) })).rejects.toThrow(/has no virtual media device for floppy/);
  });
});
