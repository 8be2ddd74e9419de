/**
 * No-op implementations (Ironic's `drivers/modules/noop.py` and `noop_mgmt.py`, the `noop` network and
 * storage interfaces), named as in Ironic: `noop` where doing nothing is a valid behaviour (network,
 * storage, management), `no-<iface>` where the hardware type does not support the concern — those fail
 * `validate` and every operation with UnsupportedDriverExtension.
 */
import type { BootDevice } from '../../domain/node.js';
import type { BiosInterface } from '../interfaces/bios.js';
import { unsupported, type DriverTask } from '../interfaces/base.js';
import type { ConsoleInterface } from '../interfaces/console.js';
import type { FirmwareInterface } from '../interfaces/firmware.js';
import type { InspectInterface } from '../interfaces/inspect.js';
import type { ManagementInterface } from '../interfaces/management.js';
import type { NetworkInterface } from '../interfaces/network.js';
import type { RaidInterface } from '../interfaces/raid.js';
import type { RescueInterface } from '../interfaces/rescue.js';
import type { StorageInterface } from '../interfaces/storage.js';
import type { VendorInterface } from '../interfaces/vendor.js';

const nothing = async () => undefined;

function refuse(iface: string) {
  return async (task: DriverTask): Promise<never> => {
    throw unsupported(task, iface);
  };
}

export function noopNetwork(): NetworkInterface {
  return {
    name: 'noop',
    properties: {},
    validate: () => undefined,
    addProvisioningNetwork: nothing,
    removeProvisioningNetwork: nothing,
    configureTenantNetworks: nothing,
    unconfigureTenantNetworks: nothing,
  };
}

export function noopStorage(): StorageInterface {
  return { name: 'noop', properties: {}, validate: () => undefined, attachVolumes: nothing, detachVolumes: nothing, shouldWriteImage: () => true };
}

/**
 * Management by hand: the operator sets the boot device; Ingot accepts every device and remembers nothing.
 * There is no BMC to send an NMI or to set a boot mode through: those fail with UnsupportedDriverExtension
 * naming the call, as Ironic's base management interface does.
 */
export function noopManagement(): ManagementInterface {
  const all: BootDevice[] = ['pxe', 'disk', 'cdrom', 'bios', 'safe', 'wanboot', 'floppy'];
  return {
    name: 'noop',
    properties: {},
    validate: () => undefined,
    getSupportedBootDevices: async () => [...all],
    getBootDevice: async () => ({ boot_device: null, persistent: null }),
    setBootDevice: nothing,
    injectNmi: refuse('inject_nmi'),
    getSupportedBootModes: refuse('get_supported_boot_modes'),
    getBootMode: refuse('get_boot_mode'),
    setBootMode: refuse('set_boot_mode'),
  };
}

export function noBios(): BiosInterface {
  return {
    name: 'no-bios',
    properties: {},
    validate: (task) => { throw unsupported(task, 'bios'); },
    applyConfiguration: refuse('bios'),
    factoryReset: refuse('bios'),
    cacheBiosSettings: nothing,
  };
}

export function noConsole(): ConsoleInterface {
  return {
    name: 'no-console',
    properties: {},
    validate: (task) => { throw unsupported(task, 'console'); },
    startConsole: refuse('console'),
    stopConsole: refuse('console'),
    getConsole: refuse('console'),
  };
}

export function noInspect(): InspectInterface {
  return { name: 'no-inspect', properties: {}, validate: (task) => { throw unsupported(task, 'inspect'); }, inspectHardware: refuse('inspect') };
}

export function noRaid(): RaidInterface {
  return {
    name: 'no-raid',
    properties: {},
    validate: (task) => { throw unsupported(task, 'raid'); },
    validateRaidConfig: (task) => { throw unsupported(task, 'raid'); },
    createConfiguration: refuse('raid'),
    deleteConfiguration: refuse('raid'),
  };
}

export function noRescue(): RescueInterface {
  return { name: 'no-rescue', properties: {}, validate: (task) => { throw unsupported(task, 'rescue'); }, rescue: refuse('rescue'), unrescue: refuse('rescue') };
}

export function noVendor(): VendorInterface {
  return { name: 'no-vendor', properties: {}, validate: (task) => { throw unsupported(task, 'vendor'); }, methods: {}, call: refuse('vendor') };
}

export function noFirmware(): FirmwareInterface {
  return {
    name: 'no-firmware',
    properties: {},
    validate: (task) => { throw unsupported(task, 'firmware'); },
    update: refuse('firmware'),
    cacheFirmwareComponents: nothing,
  };
}
