/**
 * Redfish management (`management_interface = redfish`): the one-time or persistent boot device through
 * ComputerSystem.Boot (BootSourceOverrideTarget/Enabled/Mode), plus the boot mode and NMI that the
 * virtual-media boot interface and vendor passthru use, and the virtual media of the vmedia API (device
 * types `cdrom`/`floppy`/`disk` as MediaTypes CD/Floppy/USBStick). Mapping as Ironic's `redfish/management.py`.
 */
import type { BootDevice, Node } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import { BOOT_MODES, type BootDeviceResult, type BootMode, type ManagementInterface } from '../interfaces/management.js';
import type { RedfishResource } from './client.js';
import { parseRedfishDriverInfo, REDFISH_PROPERTIES } from './driver-info.js';
import { redfishError } from './errors.js';
import { allowedResetTypes, openSystem, readSystem, resetSystem, type RedfishInterfaceOptions } from './system.js';
import { attachVirtualMedia, detachVirtualMedia, listVirtualMedia } from './virtual-media.js';

/** Ingot boot devices by Redfish BootSourceOverrideTarget. */
const FROM_REDFISH: Readonly<Record<string, BootDevice>> = { Pxe: 'pxe', Hdd: 'disk', Cd: 'cdrom', BiosSetup: 'bios', Floppy: 'floppy' };
const TO_REDFISH: Readonly<Partial<Record<BootDevice, string>>> = Object.fromEntries(Object.entries(FROM_REDFISH).map(([k, v]) => [v, k]));
/** Assumed when the system does not list its allowable targets (sushy assumes every value). */
const DEFAULT_TARGETS = ['Pxe', 'Hdd', 'Cd', 'BiosSetup'];

export type { BootMode } from '../interfaces/management.js';

function isRecord(v: unknown): v is RedfishResource {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bootOf(system: RedfishResource): RedfishResource {
  return isRecord(system['Boot']) ? system['Boot'] : {};
}

/** The boot devices a system's `Boot` object allows, in Ingot's names. */
export function supportedBootDevices(system: RedfishResource): BootDevice[] {
  const listed = bootOf(system)['BootSourceOverrideTarget@Redfish.AllowableValues'];
  const targets = Array.isArray(listed) ? listed.filter((v): v is string => typeof v === 'string') : DEFAULT_TARGETS;
  const out: BootDevice[] = [];
  for (const t of targets) {
    const d = FROM_REDFISH[t];
    if (d && !out.includes(d)) out.push(d);
  }
  return out;
}

/** The boot device and persistence a system's `Boot` object shows (`Disabled` → persistent null, as Ironic). */
export function bootDeviceOf(system: RedfishResource): BootDeviceResult {
  const boot = bootOf(system);
  const target = boot['BootSourceOverrideTarget'];
  const enabled = boot['BootSourceOverrideEnabled'];
  return {
    boot_device: typeof target === 'string' ? (FROM_REDFISH[target] ?? null) : null,
    persistent: enabled === 'Continuous' ? true : enabled === 'Once' ? false : null,
  };
}

/** The node's boot mode when known: the `boot_mode` field, else the `boot_mode` capability. */
export function knownBootMode(node: Readonly<Node>): BootMode | null {
  const mode = node.boot_mode;
  if (mode === 'uefi' || mode === 'bios') return mode;
  const caps = node.properties['capabilities'];
  if (typeof caps === 'string') {
    const m = /(?:^|,)\s*boot_mode:(uefi|bios)\s*(?:,|$)/.exec(caps);
    if (m) return m[1] as BootMode;
  } else if (isRecord(caps) && (caps['boot_mode'] === 'uefi' || caps['boot_mode'] === 'bios')) {
    return caps['boot_mode'];
  }
  return null;
}

const MODE_TO_REDFISH: Readonly<Record<BootMode, string>> = { uefi: 'UEFI', bios: 'Legacy' };

/** Reads the system's boot mode (BootSourceOverrideMode): `uefi`, `bios`, or null when it does not say. */
export async function getBootMode(task: DriverTask, opts: RedfishInterfaceOptions): Promise<BootMode | null> {
  const h = await openSystem(task, opts);
  const mode = bootOf(await readSystem(h))['BootSourceOverrideMode'];
  return mode === 'UEFI' ? 'uefi' : mode === 'Legacy' ? 'bios' : null;
}

/** Sets the system's boot mode (BootSourceOverrideMode UEFI or Legacy). */
export async function setBootMode(task: DriverTask, mode: BootMode, opts: RedfishInterfaceOptions): Promise<void> {
  if (mode !== 'uefi' && mode !== 'bios') throw fail('invalidBootMode', { mode: String(mode), supported: BOOT_MODES.join(', ') });
  const h = await openSystem(task, opts);
  const allowed = bootOf(await readSystem(h))['BootSourceOverrideMode@Redfish.AllowableValues'];
  if (Array.isArray(allowed) && !allowed.includes(MODE_TO_REDFISH[mode])) {
    throw fail('redfishBootModeNotAllowed', { bmc: h.client.bmc, system: h.path, mode, allowed: allowed.join(', ') });
  }
  await h.client.patch(h.path, { Boot: { BootSourceOverrideMode: MODE_TO_REDFISH[mode] } }, h.signal);
}

/** Sends a diagnostic interrupt (ResetType Nmi). */
export async function injectNmi(task: DriverTask, opts: RedfishInterfaceOptions): Promise<void> {
  const h = await openSystem(task, opts);
  const system = await readSystem(h);
  const allowed = await allowedResetTypes(h, system);
  // An NMI changes no power state: a BMC without ResetType Nmi is a driver failure, not a power one.
  if (!allowed.includes('Nmi')) throw redfishError(null, 'redfishNmiNotAllowed', { bmc: h.client.bmc, system: h.path, allowed: allowed.join(', ') || '(none)' });
  await resetSystem(h, system, 'Nmi');
}

/**
 * The `redfish` management interface: boot device, boot mode (BootSourceOverrideMode), NMI
 * (ResetType Nmi) and virtual media (VirtualMedia InsertMedia/EjectMedia) over the conductor's Redfish clients.
 */
export function redfishManagement(opts: RedfishInterfaceOptions): ManagementInterface {
  return {
    name: 'redfish',
    properties: REDFISH_PROPERTIES,
    validate(task) {
      parseRedfishDriverInfo(task.node);
    },
    async getSupportedBootDevices(task) {
      const h = await openSystem(task, opts);
      return supportedBootDevices(await readSystem(h));
    },
    async getBootDevice(task) {
      const h = await openSystem(task, opts);
      return bootDeviceOf(await readSystem(h));
    },
    async setBootDevice(task, device, persistent) {
      const h = await openSystem(task, opts);
      const system = await readSystem(h);
      const supported = supportedBootDevices(system);
      const target = TO_REDFISH[device];
      if (!target || !supported.includes(device)) {
        throw fail('invalidBootDevice', { device, supported: supported.join(', ') || 'none' });
      }
      const boot: RedfishResource = { BootSourceOverrideTarget: target, BootSourceOverrideEnabled: persistent ? 'Continuous' : 'Once' };
      const mode = knownBootMode(task.node);
      if (mode) boot['BootSourceOverrideMode'] = MODE_TO_REDFISH[mode];
      await h.client.patch(h.path, { Boot: boot }, h.signal);
    },
    injectNmi: (task) => injectNmi(task, opts),
    // NOTE: as Ironic's redfish management, both modes are offered without asking the BMC; setBootMode
    // checks BootSourceOverrideMode@Redfish.AllowableValues when the system lists it.
    getSupportedBootModes: async () => [...BOOT_MODES],
    getBootMode: (task) => getBootMode(task, opts),
    setBootMode: (task, mode) => setBootMode(task, mode, opts),
    getVirtualMedia: (task) => listVirtualMedia(task, opts),
    attachVirtualMedia: (task, deviceType, imageUrl) => attachVirtualMedia(task, imageUrl, deviceType, opts),
    detachVirtualMedia: (task, deviceTypes) => detachVirtualMedia(task, deviceTypes, opts),
  };
}
