/**
 * Hardware types as data: for each interface, the implementations the type supports, in order of
 * preference (the first one that is available is the default). Names not (yet) implemented in Ingot are
 * listed as in Ironic and skipped by the registry, so the lists read like Ironic's `drivers/fake_hardware.py`
 * and `drivers/generic.py`.
 */
import type { InterfaceName } from '../domain/node.js';

export type HardwareType = Readonly<Record<InterfaceName, readonly string[]>>;

export const HARDWARE_TYPES: Readonly<Record<string, HardwareType>> = {
  /** Every interface fake (or none): for tests and scale rehearsal, no hardware touched. */
  'fake-hardware': {
    bios: ['fake', 'no-bios'],
    boot: ['fake'],
    console: ['fake', 'no-console'],
    deploy: ['fake'],
    firmware: ['fake', 'no-firmware'],
    inspect: ['fake', 'no-inspect', 'agent', 'inspector'],
    management: ['fake'],
    network: ['noop', 'fake'],
    power: ['fake'],
    raid: ['fake', 'no-raid'],
    rescue: ['fake', 'no-rescue'],
    storage: ['noop', 'fake'],
    vendor: ['fake', 'no-vendor'],
  },
  /**
   * Machines without a usable BMC: the operator powers them and picks the boot device by hand.
   * Boot is network boot (`ipxe`, `pxe`); the agent writes the image (`direct`).
   */
  'manual-management': {
    bios: ['no-bios'],
    boot: ['ipxe', 'pxe', 'fake'],
    console: ['no-console'],
    deploy: ['direct', 'ramdisk', 'fake'],
    firmware: ['no-firmware'],
    inspect: ['agent', 'inspector', 'no-inspect'],
    management: ['noop', 'fake'],
    network: ['flat', 'noop'],
    power: ['agent', 'fake'],
    raid: ['no-raid', 'agent'],
    rescue: ['no-rescue', 'agent'],
    storage: ['noop'],
    vendor: ['no-vendor'],
  },
  /**
   * Machines with a Redfish BMC (Ironic's `redfish`). Out-of-band inspection, power and boot device over
   * Redfish. NOTE: virtual media boot (`redfish-virtual-media`, `redfish-https`) is listed as in Ironic;
   * until Ingot has it network boot (`ipxe`) is the default.
   */
  redfish: {
    bios: ['redfish', 'no-bios'],
    boot: ['redfish-virtual-media', 'redfish-https', 'ipxe', 'pxe', 'http', 'fake'],
    console: ['redfish-graphical', 'no-console'],
    deploy: ['direct', 'ramdisk', 'fake'],
    firmware: ['redfish', 'no-firmware'],
    inspect: ['redfish', 'agent', 'inspector', 'no-inspect'],
    management: ['redfish', 'noop'],
    network: ['flat', 'noop'],
    power: ['redfish'],
    raid: ['redfish', 'no-raid', 'agent'],
    rescue: ['no-rescue', 'agent'],
    storage: ['noop'],
    vendor: ['redfish', 'no-vendor'],
  },
  /**
   * Machines with an IPMI BMC (Ironic's `ipmi`). Power and boot device over IPMI v2.0 RMCP+ with Ingot's
   * native client; the implementations keep Ironic's name `ipmitool` so existing enrolment scripts work.
   */
  ipmi: {
    bios: ['no-bios'],
    boot: ['ipxe', 'pxe', 'http', 'fake'],
    console: ['ipmitool-socat', 'ipmitool-shellinabox', 'no-console'],
    deploy: ['direct', 'ramdisk', 'fake'],
    firmware: ['no-firmware'],
    inspect: ['agent', 'inspector', 'no-inspect'],
    management: ['ipmitool', 'noop'],
    network: ['flat', 'noop'],
    power: ['ipmitool'],
    raid: ['no-raid', 'agent'],
    rescue: ['no-rescue', 'agent'],
    storage: ['noop'],
    vendor: ['ipmitool', 'no-vendor'],
  },
};
