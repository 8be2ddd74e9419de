/**
 * Virtual media of a node's BMC: insert an image URL as a virtual CD or floppy/USB stick, and eject it.
 * Uses the VirtualMedia collection of the system's managers (Links.ManagedBy), else the system's own
 * (ComputerSystem.v1_13+); the InsertMedia/EjectMedia actions when offered, else PATCH of Image/Inserted
 * as older services need (sushy does the same).
 */
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import { odataId, type RedfishResource } from './client.js';
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

/** Every VirtualMedia resource reachable from the system. */
async function mediaSlots(h: SystemHandle): Promise<MediaSlot[]> {
  const system = await readSystem(h);
  const links = isRecord(system['Links']) ? system['Links'] : {};
  const managers = Array.isArray(links['ManagedBy']) ? links['ManagedBy'].map(odataId).filter((m): m is string => m !== null) : [];
  const collections: string[] = [];
  for (const m of managers) {
    const vm = odataId((await h.client.get(m, h.signal))['VirtualMedia']);
    if (vm) collections.push(vm);
  }
  const own = odataId(system['VirtualMedia']);
  if (own) collections.push(own);
  const slots: MediaSlot[] = [];
  for (const c of collections) {
    for (const body of await readMembers(h, c)) {
      const path = odataId(body);
      if (path) slots.push({ path, body });
    }
  }
  return slots;
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
  if (!slot) throw fail('DriverOperationError', `Redfish BMC ${h.client.bmc} system ${h.path} has no virtual media device for ${device} (media types ${MEDIA_TYPES[device].join('/')}).`);
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
