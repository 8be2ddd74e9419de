/**
 * /redfish/v1/Managers: one BMC Manager per machine (id `{machine}-bmc`) with its VirtualMedia: `Cd`
 * (the machine's own virtual media) and `Floppy` (held by the emulator). Media are inserted and ejected
 * with the `#VirtualMedia.InsertMedia`/`EjectMedia` actions, or by PATCH of `Image`/`Inserted` as older
 * BMCs accept.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Machine, VirtualMediaState } from '../../machine.js';
import { visibleMachines } from '../auth.js';
import { bodyObject, candidates, checkIfMatch, machineFor, pathOf, principalOf, type EmulatorContext } from '../context.js';
import { actionParameterMissing, actionValueNotInList, notFound, propertyUnknown, valueTypeError } from '../errors.js';
import { collection, derivedUuid, etagOf, odata, ref, seg, V1 } from '../odata.js';
import { chassisUri, managerId, managerUri, systemUri } from '../system-resources.js';
import { acceptAction } from './systems.js';

type MgrParams = { Params: { mid: string } };
type DevParams = { Params: { mid: string; dev: string } };

const DEVICES = {
  Cd: { name: 'Virtual CD', types: ['CD', 'DVD'] },
  Floppy: { name: 'Virtual Removable Media', types: ['Floppy', 'USBStick'] },
} as const;
type Device = keyof typeof DEVICES;

/** Transfer protocols DMTF's VirtualMedia.InsertMedia accepts. */
const TRANSFER_PROTOCOLS = ['CIFS', 'FTP', 'SFTP', 'HTTP', 'HTTPS', 'NFS', 'SCP', 'TFTP', 'OEM'];

const EMPTY: VirtualMediaState = { image: null, inserted: false, write_protected: true };

function machineName(ctx: EmulatorContext, mid: string): string {
  return ctx.byManagerId.get(mid)?.name ?? `\0${mid}`;
}

function device(req: FastifyRequest, dev: string): Device {
  if (dev in DEVICES) return dev as Device;
  throw notFound(pathOf(req));
}

function mediaOf(ctx: EmulatorContext, m: Machine, dev: Device): VirtualMediaState {
  return dev === 'Cd' ? m.virtualMedia() : (ctx.floppy.get(m.name) ?? EMPTY);
}

function insert(ctx: EmulatorContext, m: Machine, dev: Device, image: string, writeProtected: boolean): void {
  if (dev === 'Cd') m.insertMedia(image, writeProtected);
  else ctx.floppy.set(m.name, { image, inserted: true, write_protected: writeProtected });
}

function eject(ctx: EmulatorContext, m: Machine, dev: Device): void {
  if (dev === 'Cd') m.ejectMedia();
  else ctx.floppy.delete(m.name);
}

/** A VirtualMedia resource (VirtualMedia.v1_3_0). */
export function renderVirtualMedia(m: Machine, dev: Device, media: VirtualMediaState): Record<string, unknown> {
  const uri = `${managerUri(m)}/VirtualMedia/${dev}`;
  const image = media.image ?? '';
  return {
    ...odata(uri, '#VirtualMedia.v1_3_0.VirtualMedia'),
    Id: dev,
    Name: DEVICES[dev].name,
    MediaTypes: [...DEVICES[dev].types],
    Image: media.image,
    ImageName: image.split('/').pop()?.split('?')[0] ?? '',
    ConnectedVia: media.inserted ? 'URI' : 'NotConnected',
    Inserted: media.inserted,
    WriteProtected: media.write_protected,
    TransferMethod: 'Stream',
    Actions: {
      '#VirtualMedia.InsertMedia': { target: `${uri}/Actions/VirtualMedia.InsertMedia` },
      '#VirtualMedia.EjectMedia': { target: `${uri}/Actions/VirtualMedia.EjectMedia` },
    },
  };
}

/** The parameters of InsertMedia (and of a PATCH that inserts): the image and its write protection. */
function parseInsert(body: Record<string, unknown>): { image: string; writeProtected: boolean } {
  const { Image: image, WriteProtected: wp, Inserted: inserted, TransferProtocolType: proto, TransferMethod: method } = body;
  if (image === undefined || image === null || image === '') throw actionParameterMissing('VirtualMedia.InsertMedia', 'Image');
  if (typeof image !== 'string') throw valueTypeError('Image', image, '#/Image');
  if (wp !== undefined && typeof wp !== 'boolean') throw valueTypeError('WriteProtected', wp, '#/WriteProtected');
  if (inserted !== undefined && typeof inserted !== 'boolean') throw valueTypeError('Inserted', inserted, '#/Inserted');
  if (proto !== undefined && !TRANSFER_PROTOCOLS.includes(proto as string)) throw actionValueNotInList('VirtualMedia.InsertMedia', 'TransferProtocolType', proto);
  if (method !== undefined && method !== 'Stream' && method !== 'Upload') throw actionValueNotInList('VirtualMedia.InsertMedia', 'TransferMethod', method);
  return { image, writeProtected: wp ?? true };
}

export function managerRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const machineOf = (req: FastifyRequest, mid: string) => machineFor(ctx, req, machineName(ctx, mid));

  app.get(`${V1}/Managers`, async (req) => {
    const members = visibleMachines(principalOf(req), candidates(ctx, principalOf(req))).map(managerUri);
    return collection(`${V1}/Managers`, 'Manager Collection', 'ManagerCollection', members);
  });

  app.get<MgrParams>(`${V1}/Managers/:mid`, async (req) => {
    const m = await machineOf(req, req.params.mid);
    const uri = managerUri(m);
    return {
      ...odata(uri, '#Manager.v1_10_0.Manager'),
      Id: managerId(m),
      Name: `Manager of ${m.name}`,
      Description: 'Baseboard management controller (emulated by Ingot)',
      ManagerType: 'BMC',
      UUID: derivedUuid(`${m.profile.system_uuid}-bmc`),
      Model: 'Ingot Redfish BMC',
      FirmwareVersion: '1.0.0',
      PowerState: 'On',
      Status: { State: 'Enabled', Health: 'OK' },
      VirtualMedia: ref(`${uri}/VirtualMedia`),
      Links: { ManagerForServers: [ref(systemUri(m))], ManagerForChassis: [ref(chassisUri(m))], ManagerInChassis: ref(chassisUri(m)) },
      Actions: { '#Manager.Reset': { target: `${uri}/Actions/Manager.Reset`, 'ResetType@Redfish.AllowableValues': ['GracefulRestart', 'ForceRestart'] } },
    };
  });

  // A BMC reset changes nothing the emulator models; it is accepted so that drivers can call it.
  app.post<MgrParams>(`${V1}/Managers/:mid/Actions/Manager.Reset`, async (req, reply) => {
    await machineOf(req, req.params.mid);
    const type = bodyObject(req, true).ResetType;
    if (type !== undefined && type !== 'GracefulRestart' && type !== 'ForceRestart') throw actionValueNotInList('Manager.Reset', 'ResetType', type);
    return reply.code(204).send();
  });

  app.get<MgrParams>(`${V1}/Managers/:mid/VirtualMedia`, async (req) => {
    const m = await machineOf(req, req.params.mid);
    const uri = `${managerUri(m)}/VirtualMedia`;
    return collection(uri, 'Virtual Media Services', 'VirtualMediaCollection', Object.keys(DEVICES).map((d) => `${uri}/${seg(d)}`));
  });

  app.get<DevParams>(`${V1}/Managers/:mid/VirtualMedia/:dev`, async (req, reply) => {
    const m = await machineOf(req, req.params.mid);
    const dev = device(req, req.params.dev);
    const body = renderVirtualMedia(m, dev, mediaOf(ctx, m, dev));
    return reply.header('etag', etagOf(body)).header('allow', 'GET, PATCH').send(body);
  });

  app.patch<DevParams>(`${V1}/Managers/:mid/VirtualMedia/:dev`, async (req, reply) => {
    const m = await machineOf(req, req.params.mid);
    const dev = device(req, req.params.dev);
    const body = bodyObject(req);
    for (const key of Object.keys(body)) {
      if (!['Image', 'Inserted', 'WriteProtected', 'TransferProtocolType', 'TransferMethod', 'UserName', 'Password'].includes(key)) throw propertyUnknown(key, `#/${key}`);
    }
    checkIfMatch(req, etagOf(renderVirtualMedia(m, dev, mediaOf(ctx, m, dev))));
    if (body.Image === null || body.Image === '' || body.Inserted === false) {
      eject(ctx, m, dev);
    } else if (body.Image !== undefined) {
      const { image, writeProtected } = parseInsert(body);
      insert(ctx, m, dev, image, writeProtected);
    } else if (body.WriteProtected !== undefined) {
      const media = mediaOf(ctx, m, dev);
      if (typeof body.WriteProtected !== 'boolean') throw valueTypeError('WriteProtected', body.WriteProtected, '#/WriteProtected');
      if (media.image !== null) insert(ctx, m, dev, media.image, body.WriteProtected);
    }
    return reply.code(204).send();
  });

  app.post<DevParams>(`${V1}/Managers/:mid/VirtualMedia/:dev/Actions/VirtualMedia.InsertMedia`, async (req, reply) => {
    const m = await machineOf(req, req.params.mid);
    const dev = device(req, req.params.dev);
    // NOTE: an image over an inserted one replaces it (sushy-tools does the same); Ironic ejects first.
    const { image, writeProtected } = parseInsert(bodyObject(req, true));
    return acceptAction(ctx, req, reply, ctx.asyncMedia, `Insert ${image} into ${m.name} ${dev}`, async () => insert(ctx, m, dev, image, writeProtected));
  });

  app.post<DevParams>(`${V1}/Managers/:mid/VirtualMedia/:dev/Actions/VirtualMedia.EjectMedia`, async (req, reply) => {
    const m = await machineOf(req, req.params.mid);
    const dev = device(req, req.params.dev);
    return acceptAction(ctx, req, reply, ctx.asyncMedia, `Eject ${m.name} ${dev}`, async () => eject(ctx, m, dev));
  });
}
