import type { BootDevice } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

export interface BootDeviceResult {
  boot_device: BootDevice | null;
  persistent: boolean | null;
}

/** Boot device and other out-of-band management of a machine. */
export interface ManagementInterface extends DriverInterface {
  getSupportedBootDevices(task: DriverTask): Promise<BootDevice[]>;
  getBootDevice(task: DriverTask): Promise<BootDeviceResult>;
  /** Throws InvalidParameterValue for a device outside `getSupportedBootDevices`. */
  setBootDevice(task: DriverTask, device: BootDevice, persistent: boolean): Promise<void>;
}
