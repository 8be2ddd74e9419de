import type { BootDevice } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

export interface BootDeviceResult {
  boot_device: BootDevice | null;
  persistent: boolean | null;
}

/** Boot modes as Ironic names them (`ironic.common.boot_modes`): UEFI or legacy BIOS. */
export type BootMode = 'uefi' | 'bios';

/** Every boot mode Ingot knows. */
export const BOOT_MODES: readonly BootMode[] = ['bios', 'uefi'];

/**
 * Boot device and other out-of-band management of a machine.
 *
 * The optional methods are Ironic's optional management calls: an implementation without them does not
 * support the operation, and the conductor answers UnsupportedDriverExtension for it. An implementation
 * may also carry them and throw UnsupportedDriverExtension (the `noop` one does, as Ironic's base class).
 */
export interface ManagementInterface extends DriverInterface {
  getSupportedBootDevices(task: DriverTask): Promise<BootDevice[]>;
  getBootDevice(task: DriverTask): Promise<BootDeviceResult>;
  /** Throws InvalidParameterValue for a device outside `getSupportedBootDevices`. */
  setBootDevice(task: DriverTask, device: BootDevice, persistent: boolean): Promise<void>;

  /** Sends a diagnostic interrupt (NMI) to the machine now. */
  injectNmi?(task: DriverTask): Promise<void>;
  /** The boot mode the machine will boot in, or null when it cannot tell. */
  getBootMode?(task: DriverTask): Promise<BootMode | null>;
  /** Sets the boot mode for the next boots; throws InvalidParameterValue for a mode it does not support. */
  setBootMode?(task: DriverTask, mode: BootMode): Promise<void>;
  /** The boot modes `setBootMode` accepts; answered without talking to the BMC. */
  getSupportedBootModes?(task: DriverTask): Promise<BootMode[]>;
}
