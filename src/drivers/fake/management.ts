/** Fake management: boot device kept in driver_internal_info, PXE and disk supported. */
import type { BootDevice } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { ManagementInterface } from '../interfaces/management.js';
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
  };
}
