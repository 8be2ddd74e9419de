/**
 * The `redfish` management interface against a small in-process Redfish BMC: conformance, boot mode, NMI
 * and virtual media (one CD device in the system's own VirtualMedia, changed by PATCH only).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../domain/node.js';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { managementConformance } from '../interfaces/management.case.js';
import { redfishManagement } from './management.js';
import { RedfishClientPool } from './pool.js';

/** A one-system BMC; `modes` and `resets` are the AllowableValues it lists. */
interface Bmc {
  app: FastifyInstance;
  info: JsonObject;
  boot: Record<string, string>;
  resets: string[];
  /** The system's one virtual CD. */
  cd: { Image: string | null; Inserted: boolean };
}

const CD = '/redfish/v1/Systems/s1/VirtualMedia/Cd';

async function startBmc(modes: string[], resets: string[], info: JsonObject = {}): Promise<Bmc> {
  const app = Fastify();
  const bmc: Bmc = {
    app, info, boot: { BootSourceOverrideTarget: 'None', BootSourceOverrideEnabled: 'Disabled', BootSourceOverrideMode: 'Legacy' }, resets: [], cd: { Image: null, Inserted: false },
  };
  app.get('/redfish/v1/', async () => ({ Systems: { '@odata.id': '/redfish/v1/Systems' } }));
  app.get('/redfish/v1/Systems', async () => ({ Members: [{ '@odata.id': '/redfish/v1/Systems/s1' }] }));
  app.get('/redfish/v1/Systems/s1', async () => ({
    '@odata.id': '/redfish/v1/Systems/s1',
    PowerState: 'On',
    Boot: { ...bmc.boot, 'BootSourceOverrideTarget@Redfish.AllowableValues': ['Pxe', 'Hdd'], 'BootSourceOverrideMode@Redfish.AllowableValues': modes },
    Actions: { '#ComputerSystem.Reset': { target: '/redfish/v1/Systems/s1/Actions/ComputerSystem.Reset', 'ResetType@Redfish.AllowableValues': resets } },
    VirtualMedia: { '@odata.id': '/redfish/v1/Systems/s1/VirtualMedia' },
  }));
  app.get('/redfish/v1/Systems/s1/VirtualMedia', async () => ({ Members: [{ '@odata.id': CD }] }));
  app.get(CD, async () => ({ '@odata.id': CD, Id: 'Cd', MediaTypes: ['DVD'], ...bmc.cd }));
  app.patch(CD, async (req, reply) => {
    const body = req.body as { Image?: string | null; Inserted?: boolean };
    bmc.cd = { Image: body.Image ?? null, Inserted: body.Inserted ?? body.Image !== null };
    return reply.code(204).send();
  });
  app.post('/redfish/v1/Systems/s1/Actions/ComputerSystem.Reset', async (req, reply) => {
    bmc.resets.push((req.body as { ResetType: string }).ResetType);
    return reply.code(204).send();
  });
  app.patch('/redfish/v1/Systems/s1', async (req, reply) => {
    const boot = (req.body as { Boot?: Record<string, string> }).Boot ?? {};
    const mode = boot['BootSourceOverrideMode'];
    if (mode !== undefined && !modes.includes(mode)) {
      return reply.code(400).send({ error: { message: `BootSourceOverrideMode ${mode} is not allowed.` } });
    }
    Object.assign(bmc.boot, boot);
    return reply.code(204).send();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  bmc.info.redfish_address = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return bmc;
}

const pool = new RedfishClientPool({ settings: { connection_retry_interval_ms: 5 } });
/** driver_info of the BMC allowing both modes and NMI, filled in once it listens (the suite reads it lazily). */
const fullInfo: JsonObject = {};
let full: Bmc | undefined;
let uefiOnly: Bmc | undefined;

beforeAll(async () => {
  full = await startBmc(['UEFI', 'Legacy'], ['On', 'ForceOff', 'Nmi'], fullInfo);
  uefiOnly = await startBmc(['UEFI'], ['On', 'ForceOff']);
});
afterAll(async () => {
  await pool.close();
  await full?.app.close();
  await uefiOnly?.app.close();
});

managementConformance('redfish over HTTP', () => redfishManagement({ pool }), { remembers: true, injectsNmi: true, nodeFields: { driver: 'redfish', driver_info: fullInfo } });

describe('redfish management: boot mode and NMI', () => {
  it('sets BootSourceOverrideMode and posts ResetType Nmi', async () => {
    const m = redfishManagement({ pool });
    const task = sampleTask({ driver: 'redfish', driver_info: fullInfo });
    await m.setBootMode?.(task, 'uefi');
    expect(full?.boot.BootSourceOverrideMode).toBe('UEFI');
    expect(await m.getBootMode?.(task)).toBe('uefi');
    const before = full?.resets.length ?? 0;
    await m.injectNmi?.(task);
    expect(full?.resets.slice(before)).toEqual(['Nmi']);
  });

  it('refuses a mode the system does not allow, and answers an NMI it cannot send as a driver failure', async () => {
    const m = redfishManagement({ pool });
    const task = sampleTask({ driver: 'redfish', driver_info: uefiOnly?.info ?? {} });
    await expect(m.setBootMode?.(task, 'bios')).rejects.toMatchObject({ code: 'InvalidParameterValue', message: expect.stringContaining('does not support boot mode bios') });
    await expect(m.injectNmi?.(task)).rejects.toMatchObject({ code: 'DriverOperationError', status: 500, message: expect.stringContaining('cannot inject an NMI') });
    expect(uefiOnly?.resets).toEqual([]);
  });
});

describe('redfish management: virtual media', () => {
  it('lists the system\u2019s own devices and inserts a CD into a DVD-only device by PATCH, write-protected', async () => {
    const m = redfishManagement({ pool });
    const task = sampleTask({ driver: 'redfish', driver_info: fullInfo });
    await m.attachVirtualMedia?.(task, 'cdrom', 'http://10.0.0.1/a.iso');
    expect(full?.cd).toEqual({ Image: 'http://10.0.0.1/a.iso', Inserted: true });
    expect(await m.getVirtualMedia?.(task)).toEqual([{ media_types: ['DVD'], inserted: true, image: 'http://10.0.0.1/a.iso' }]);
    await expect(m.attachVirtualMedia?.(task, 'floppy', 'http://10.0.0.1/f.img')).rejects.toMatchObject({
      code: 'InvalidParameterValue', message: expect.stringContaining('No suitable virtual media device found (no free Floppy device'),
    });
    await m.detachVirtualMedia?.(task, ['disk']);
    expect(full?.cd.Inserted).toBe(true);
    await m.detachVirtualMedia?.(task);
    expect(full?.cd).toEqual({ Image: null, Inserted: false });
  });
});
