/**
 * Fake management: boot device and boot mode kept in driver_internal_info (`fake_boot_device`,
 * `fake_boot_device_persistent`, `fake_boot_mode`), PXE and disk supported, both boot modes; every
 * NMI is counted in `fake_nmi_count`. Virtual media: one device per type (a CD/DVD, a floppy, a USB
 * stick) whose image URLs are kept in `fake_vmedia` ({device type: URL}).
 *
 * NOTE: Ironic's fake management has no virtual media (its base class refuses it); Ingot's fake keeps
 * the state so that the vmedia API can be exercised without a BMC.
 */
import type { BootDevice, JsonObject } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import { BOOT_MODES, VMEDIA_DEVICE_TYPES, type BootMode, type ManagementInterface, type VmediaDeviceType } from '../interfaces/management.js';
import { delayProperty, fakeDelay, validateDelay } from './delay.js';

const DEVICES: BootDevice[] = ['pxe', 'disk'];

/** The Redfish MediaTypes each fake virtual device reports, in the order `getVirtualMedia` lists them. */
const VMEDIA_SLOTS: ReadonlyArray<[VmediaDeviceType, string[]]> = [['cdrom', ['CD', 'DVD']], ['floppy', ['Floppy']], ['disk', ['USBStick']]];

/** The inserted image URL per device type. */
function fakeVmedia(task: DriverTask): Partial<Record<VmediaDeviceType, string>> {
  const raw = task.node.driver_internal_info['fake_vmedia'];
  const out: Partial<Record<VmediaDeviceType, string>> = {};
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) if (VMEDIA_DEVICE_TYPES.includes(k as VmediaDeviceType) && typeof v === 'string') out[k as VmediaDeviceType] = v;
  }
  return out;
}

function saveVmedia(task: DriverTask, media: Partial<Record<VmediaDeviceType, string>>): void {
  const info: JsonObject = { ...task.node.driver_internal_info };
  if (Object.keys(media).length === 0) delete info['fake_vmedia'];
  else info['fake_vmedia'] = media;
  task.update({ driver_internal_info: info });
}

export function fakeManagement(): ManagementInterface {
  return {
    name: 'fake',
    properties: delayProperty('management'),
    validate: (task) => validateDelay(task, 'management'),
    getSupportedBootDevices: async () => [...DEVICES],
    async getBootDevice(task) {
      await fakeDelay(task, 'management');
      const info = task.node.driver_internal_info;
      const device = info['fake_boot_device'];
      return {
        boot_device: typeof device === 'string' && DEVICES.includes(device as BootDevice) ? (device as BootDevice) : 'pxe',
        persistent: info['fake_boot_device_persistent'] === true,
      };
    },
    async setBootDevice(task, device, persistent) {
      await fakeDelay(task, 'management');
      if (!DEVICES.includes(device)) throw fail('invalidBootDevice', { device, supported: DEVICES.join(', ') });
      task.update({
        driver_internal_info: { ...task.node.driver_internal_info, fake_boot_device: device, fake_boot_device_persistent: persistent },
      });
    },
    async injectNmi(task) {
      await fakeDelay(task, 'management');
      const count = task.node.driver_internal_info['fake_nmi_count'];
      task.update({
        driver_internal_info: { ...task.node.driver_internal_info, fake_nmi_count: (typeof count === 'number' ? count : 0) + 1 },
      });
    },
    getSupportedBootModes: async () => [...BOOT_MODES],
    async getBootMode(task) {
      await fakeDelay(task, 'management');
      const mode = task.node.driver_internal_info['fake_boot_mode'];
      return BOOT_MODES.includes(mode as BootMode) ? (mode as BootMode) : null;
    },
    async setBootMode(task, mode) {
      await fakeDelay(task, 'management');
      if (!BOOT_MODES.includes(mode)) throw fail('invalidBootMode', { mode: String(mode), supported: BOOT_MODES.join(', ') });
      task.update({ driver_internal_info: { ...task.node.driver_internal_info, fake_boot_mode: mode } });
    },
    async getVirtualMedia(task) {
      await fakeDelay(task, 'management');
      const media = fakeVmedia(task);
      return VMEDIA_SLOTS.map(([type, mediaTypes]) => ({ media_types: [...mediaTypes], inserted: media[type] !== undefined, image: media[type] ?? null }));
    },
    async attachVirtualMedia(task, deviceType, imageUrl) {
      await fakeDelay(task, 'management');
      if (!VMEDIA_DEVICE_TYPES.includes(deviceType)) {
        throw fail('fakeVmediaDeviceInvalid', { device: String(deviceType), supported: VMEDIA_DEVICE_TYPES.join(', ') });
      }
      const media = fakeVmedia(task);
      const current = media[deviceType];
      if (current === imageUrl) return;
      // As the redfish interface: an occupied device is not taken over; the user detaches first.
      if (current !== undefined) throw fail('fakeVmediaDeviceOccupied', { device: deviceType, image: current });
      saveVmedia(task, { ...media, [deviceType]: imageUrl });
    },
    async detachVirtualMedia(task, deviceTypes) {
      await fakeDelay(task, 'management');
      const media = fakeVmedia(task);
      for (const type of deviceTypes ?? VMEDIA_DEVICE_TYPES) delete media[type];
      saveVmedia(task, media);
    },
  };
}
