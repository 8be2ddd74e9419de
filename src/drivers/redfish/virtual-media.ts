/**
 * Virtual media of a node's BMC: insert an image URL as a virtual CD or floppy/USB stick, and eject it.
 * Uses the VirtualMedia collection of the system's managers (Links.ManagedBy), else the system's own
 * (ComputerSystem.v1_13+); the InsertMedia/EjectMedia actions when offered, else PATCH of Image/Inserted
 * as older services need (sushy does the same). `insertMedia`/`ejectMedia` serve the boot interfaces;
 * `listVirtualMedia`/`attachVirtualMedia`/`detachVirtualMedia` serve the vmedia API (`…/vmedia`, 1.89 and
 * 1.93) with Ironic's device choice (`redfish/boot.py` `_insert_vmedia`, `_eject_vmedia`, `get_vmedia`).
 */
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import type { VirtualMediaInfo, VmediaDeviceType } from '../interfaces/management.js';
import { odataId, type RedfishResource } from './client.js';
import { RedfishError } from './errors.js';
import { openSystem, readMembers, readSystem, type RedfishInterfaceOptions, type SystemHandle } from './system.js';

/** Which kind of virtual device: `cd` (CD/DVD) or `floppy` (floppy or USB stick). */
export type VirtualMediaDevice = 'cd' | 'floppy';

const MEDIA_TYPES: Readonly<Record<VirtualMediaDevice, readonly string[]>> = { cd: ['CD', 'DVD'], floppy: ['Floppy', 'USBStick'] };

function isRecord(v: unknown): v is RedfishResource {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One virtual media device: its path and current body. */
interface MediaSlot {
  path: string;
  body: RedfishResource;
}

/** The virtual media devices of the system itself (null when it has no VirtualMedia) and of each of its managers. */
interface MediaResources {
  system: MediaSlot[] | null;
  managers: MediaSlot[][];
}

async function slotsOf(h: SystemHandle, collection: string): Promise<MediaSlot[]> {
  const slots: MediaSlot[] = [];
  for (const body of await readMembers(h, collection)) {
    const path = odataId(body);
    if (path) slots.push({ path, body });
  }
  return slots;
}

async function mediaResources(h: SystemHandle): Promise<MediaResources> {
  const system = await readSystem(h);
  const links = isRecord(system['Links']) ? system['Links'] : {};
  const managerPaths = Array.isArray(links['ManagedBy']) ? links['ManagedBy'].map(odataId).filter((m): m is string => m !== null) : [];
  const managers: MediaSlot[][] = [];
  for (const m of managerPaths) {
    const vm = odataId((await h.client.get(m, h.signal))['VirtualMedia']);
    if (vm) managers.push(await slotsOf(h, vm));
  }
  const own = odataId(system['VirtualMedia']);
  return { system: own ? await slotsOf(h, own) : null, managers };
}

/** Every VirtualMedia resource reachable from the system: the managers' first, then the system's own. */
async function mediaSlots(h: SystemHandle): Promise<MediaSlot[]> {
  const r = await mediaResources(h);
  return [...r.managers.flat(), ...(r.system ?? [])];
}

function slotsFor(slots: MediaSlot[], device: VirtualMediaDevice): MediaSlot[] {
  return slots.filter((s) => Array.isArray(s.body['MediaTypes']) && s.body['MediaTypes'].some((t) => MEDIA_TYPES[device].includes(t as string)));
}

function actionTarget(body: RedfishResource, action: string): string | null {
  const actions = isRecord(body['Actions']) ? body['Actions'] : {};
  const a = actions[`#VirtualMedia.${action}`];
  return isRecord(a) && typeof a['target'] === 'string' ? a['target'] : null;
}

async function eject(h: SystemHandle, slot: MediaSlot): Promise<void> {
  const target = actionTarget(slot.body, 'EjectMedia');
  if (target) await h.client.post(target, {}, h.signal);
  else await h.client.patch(slot.path, { Image: null, Inserted: false }, h.signal);
}

/**
 * Inserts `url` into the node's first virtual device of `device` type, write-protected; ejects what is
 * there first unless it is the same image already.
 */
export async function insertMedia(task: DriverTask, url: string, device: VirtualMediaDevice, opts: RedfishInterfaceOptions): Promise<void> {
  const h = await openSystem(task, opts);
  const slot = slotsFor(await mediaSlots(h), device)[0];
  if (!slot) throw fail('redfishNoMediaDevice', { bmc: h.client.bmc, system: h.path, device, types: MEDIA_TYPES[device].join('/') });
  if (slot.body['Inserted'] === true) {
    if (slot.body['Image'] === url) return;
    await eject(h, slot);
  }
  const target = actionTarget(slot.body, 'InsertMedia');
  if (target) await h.client.post(target, { Image: url, Inserted: true, WriteProtected: true }, h.signal);
  else await h.client.patch(slot.path, { Image: url, Inserted: true, WriteProtected: true }, h.signal);
}

/** Ejects the media of `device` type, or of every virtual device when `device` is omitted; nothing inserted is fine. */
export async function ejectMedia(task: DriverTask, device: VirtualMediaDevice | undefined, opts: RedfishInterfaceOptions): Promise<void> {
  const h = await openSystem(task, opts);
  const all = await mediaSlots(h);
  const slots = device ? slotsFor(all, device) : all;
  for (const slot of slots) {
    if (slot.body['Inserted'] === true || (typeof slot.body['Image'] === 'string' && slot.body['Image'] !== '')) await eject(h, slot);
  }
}

/** The Redfish MediaType each Ironic device type goes to (Ironic's redfish `VMEDIA_DEVICES_MAP`). */
const VMEDIA_MEDIA_TYPE: Readonly<Record<VmediaDeviceType, string>> = { cdrom: 'CD', floppy: 'Floppy', disk: 'USBStick' };

/**
 * Whether `slot` takes media of `mediaType`. NOTE: a CD is also accepted by a device that only lists
 * DVD (Cisco UCS B/X blades do; Ironic bugs 2031595 and 2039042).
 */
function takes(slot: MediaSlot, mediaType: string): boolean {
  const types = Array.isArray(slot.body['MediaTypes']) ? slot.body['MediaTypes'] : [];
  return types.includes(mediaType) || (mediaType === 'CD' && types.includes('DVD'));
}


/**
 * The virtual media devices `GET …/vmedia` lists, chosen as Ironic's redfish `get_vmedia` does: the
 * system's own VirtualMedia when the system has a collection, else the first manager that has devices.
 * InvalidParameterValue when there are none.
 */
export async function listVirtualMedia(task: DriverTask, opts: RedfishInterfaceOptions): Promise<VirtualMediaInfo[]> {
  const h = await openSystem(task, opts);
  const r = await mediaResources(h);
  const slots = r.system ?? r.managers.find((m) => m.length > 0) ?? [];
  if (slots.length === 0) throw fail('redfishNoVirtualMedia', { bmc: h.client.bmc, system: h.path });
  return slots.map(({ body }) => ({
    media_types: Array.isArray(body['MediaTypes']) ? body['MediaTypes'].filter((t): t is string => typeof t === 'string') : [],
    inserted: typeof body['Inserted'] === 'boolean' ? body['Inserted'] : null,
    image: typeof body['Image'] === 'string' ? body['Image'] : null,
  }));
}

/**
 * Attaches `url` as Ironic's `attach_virtual_media` does: in the system's own devices when it has a
 * collection, else in the managers' (in order), the first device that takes `deviceType` and holds no
 * other image gets it, write-protected; a device holding this very image already means done. A device
 * the BMC refuses with 400 or 405 is skipped for the next one. InvalidParameterValue when none took it.
 */
export async function attachVirtualMedia(task: DriverTask, url: string, deviceType: VmediaDeviceType, opts: RedfishInterfaceOptions): Promise<void> {
  const h = await openSystem(task, opts);
  const mediaType = VMEDIA_MEDIA_TYPE[deviceType];
  const r = await mediaResources(h);
  const errors: string[] = [];
  for (const slots of r.system !== null ? [r.system] : r.managers) {
    for (const slot of slots) {
      if (!takes(slot, mediaType)) continue;
      // NOTE: unlike the boot interfaces, an occupied device is not ejected: the API user detaches first.
      if (slot.body['Inserted'] === true) {
        if (slot.body['Image'] === url) return;
        continue;
      }
      try {
        const target = actionTarget(slot.body, 'InsertMedia');
        if (target) await h.client.post(target, { Image: url, Inserted: true, WriteProtected: true }, h.signal);
        else await h.client.patch(slot.path, { Image: url, Inserted: true, WriteProtected: true }, h.signal);
        return;
      } catch (err) {
        if (err instanceof RedfishError && (err.httpStatus === 400 || err.httpStatus === 405)) {
          errors.push(err.message);
          continue;
        }
        throw err;
      }
    }
  }
  if (errors.length === 1) throw fail('redfishVirtualMediaMountFailed', { error: errors[0] as string });
  if (errors.length > 1) throw fail('redfishVirtualMediaMountsFailed', { first: errors[0] as string, last: errors[errors.length - 1] as string });
  throw fail('redfishNoFreeVirtualMedia', { mediaType, bmc: h.client.bmc, system: h.path });
}

/**
 * Detaches as Ironic's `detach_virtual_media` does: ejects every inserted device of the system and of
 * its managers that takes one of `deviceTypes`, or every inserted device when `deviceTypes` is undefined.
 */
export async function detachVirtualMedia(task: DriverTask, deviceTypes: readonly VmediaDeviceType[] | undefined, opts: RedfishInterfaceOptions): Promise<void> {
  const h = await openSystem(task, opts);
  const r = await mediaResources(h);
  const types = deviceTypes?.map((t) => VMEDIA_MEDIA_TYPE[t]);
  for (const slot of [...(r.system ?? []), ...r.managers.flat()]) {
    if (types && !types.some((t) => takes(slot, t))) continue;
    if (slot.body['Inserted'] === true) await eject(h, slot);
  }
}
