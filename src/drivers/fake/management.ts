/**
 * Fake management: boot device and boot mode kept in driver_internal_info (`fake_boot_device`,
 * `fake_boot_device_persistent`, `fake_boot_mode`), PXE and disk supported, both boot modes; every
 * NMI is counted in `fake_nmi_count`.
 */
import type { BootDevice } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import { BOOT_MODES, type BootMode, type ManagementInterface } from '../interfaces/management.js';
import { delayProperty, fakeDelay, validateDelay } from './delay.js';

const DEVICES: BootDevice[] = ['pxe', 'disk'];

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
      if (!DEVICES.includes(device)) throw fail('InvalidParameterValue', `Invalid boot device ${device} specified.`);
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
      if (!BOOT_MODES.includes(mode)) throw fail('InvalidParameterValue', `Invalid boot mode ${String(mode)} specified; use ${BOOT_MODES.join(' or ')}.`);
      task.update({ driver_internal_info: { ...task.node.driver_internal_info, fake_boot_mode: mode } });
    },
  };
}
