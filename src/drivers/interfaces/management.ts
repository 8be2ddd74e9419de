import type { BootDevice, BootMode, VmediaDeviceType } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

// The words for boot modes and virtual media devices are the domain's (the conductor contract uses them too).
export { BOOT_MODES, VMEDIA_DEVICE_TYPES, type BootMode, type VmediaDeviceType } from '../../domain/node.js';

export interface BootDeviceResult {
  boot_device: BootDevice | null;
  persistent: boolean | null;
}

/**
 * One virtual media device of the machine as `GET /v1/nodes/{node}/vmedia` (1.93) lists it: Ironic's
 * redfish `get_vmedia` keys, with the Redfish MediaTypes (`CD`, `DVD`, `Floppy`, `USBStick`, …).
 */
export interface VirtualMediaInfo {
  media_types: string[];
  /** Whether media is inserted; null when the BMC does not say. */
  inserted: boolean | null;
  /** URL of the inserted image; null when none. */
  image: string | null;
}

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

  /** The machine's virtual media devices and what is inserted in them (Ironic's `get_virtual_media`). */
  getVirtualMedia?(task: DriverTask): Promise<VirtualMediaInfo[]>;
  /**
   * Inserts `imageUrl` into a free virtual device of `deviceType`, write-protected; nothing to do when the
   * same image is inserted already. InvalidParameterValue when no device of that type is free.
   */
  attachVirtualMedia?(task: DriverTask, deviceType: VmediaDeviceType, imageUrl: string): Promise<void>;
  /** Ejects the media of the listed device types, or of every device when `deviceTypes` is undefined. */
  detachVirtualMedia?(task: DriverTask, deviceTypes?: readonly VmediaDeviceType[]): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    management: ManagementInterface;
  }
}
