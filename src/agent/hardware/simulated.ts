/**
 * The hardware manager of a simulated machine: the inventory of a {@link HardwareProfile}, so that the
 * agent's report and the BMC emulator's out-of-band view of one machine agree. Deterministic: the same
 * profile and options give the same inventory.
 */
import type { Inventory } from '../../protocol/agent/inventory.js';
import type { HardwareProfile, SwitchPort } from '../../protocol/hardware/profile.js';
import type { HardwareManager } from './manager.js';

/** Options of {@link simulatedHardwareManager}. */
export interface SimulatedManagerOptions {
  /** The BMC address to report (the emulator's), or null. */
  bmcAddress?: string | null;
  /** The PXE boot MAC; default: the MAC of the profile's pxe_enabled NIC. */
  bootMac?: string | null;
  /** Host name to report; default derived from the serial number. */
  hostname?: string;
}

const hexOf = (bytes: readonly number[]): string => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The LLDP TLVs a NIC hears from `port`, as IPA reports them (`[type, hex value]`): Chassis ID (subtype 4,
 * MAC address), Port ID (subtype 5, interface name), System Name.
 */
export function lldpTlvs(port: SwitchPort): [number, string][] {
  const ascii = (s: string): number[] => [...Buffer.from(s, 'utf8')];
  return [
    [1, hexOf([4, ...port.switch_id.split(':').map((b) => parseInt(b, 16))])],
    [2, hexOf([5, ...ascii(port.port_id)])],
    [5, hexOf(ascii(port.switch_name))],
  ];
}

/** The inventory a machine built from `profile` reports. */
export function profileInventory(profile: HardwareProfile, options: SimulatedManagerOptions = {}): Inventory {
  const pxe = options.bootMac ?? profile.nics.find((n) => n.pxe_enabled)?.mac ?? null;
  return {
    cpu: {
      model_name: profile.cpu.model_name,
      frequency: String(profile.cpu.frequency_mhz),
      count: profile.cpu.count,
      architecture: profile.cpu.architecture,
      flags: [...profile.cpu.flags],
      socket_count: 1,
    },
    memory: { total: profile.memory_mib * 1024 * 1024, physical_mb: profile.memory_mib },
    disks: profile.disks.map((d) => ({
      name: d.name,
      model: d.model,
      size: d.size_bytes,
      rotational: d.rotational,
      wwn: d.wwn,
      serial: d.serial,
      vendor: d.vendor,
      wwn_with_extension: d.wwn,
      wwn_vendor_extension: null,
      hctl: null,
      by_path: null,
    })),
    interfaces: profile.nics.map((n) => ({
      name: n.name,
      mac_address: n.mac.toLowerCase(),
      ipv4_address: null,
      ipv6_address: null,
      has_carrier: true,
      lldp: n.switch_port ? lldpTlvs(n.switch_port) : null,
      vendor: null,
      product: null,
      biosdevname: null,
      client_id: null,
      speed_mbps: n.speed_mbps,
    })),
    bmc_address: options.bmcAddress ?? null,
    bmc_v6address: null,
    system_vendor: { manufacturer: profile.manufacturer, product_name: profile.model, serial_number: profile.serial_number },
    boot: { current_boot_mode: profile.boot_mode, pxe_interface: pxe },
    hostname: options.hostname ?? profile.serial_number.toLowerCase(),
  };
}

/** A hardware manager reporting `profile`. */
export function simulatedHardwareManager(profile: HardwareProfile, options: SimulatedManagerOptions = {}): HardwareManager {
  return {
    name: 'ingot_simulated_hardware_manager',
    version: '1.0',
    async collectInventory() {
      return { inventory: profileInventory(profile, options), problems: [] };
    },
    async listInterfaces() {
      return profileInventory(profile, options).interfaces;
    },
  };
}

/** Checks that parsed JSON looks like a HardwareProfile; throws an Error naming the first bad field. */
export function assertHardwareProfile(value: unknown): asserts value is HardwareProfile {
  const v = value as Partial<HardwareProfile> | null;
  const bad = (field: string) => {
    throw new Error(`not a hardware profile: ${field} is missing or of the wrong type`);
  };
  if (typeof v !== 'object' || v === null) bad('the document');
  if (typeof v?.manufacturer !== 'string') bad('manufacturer');
  if (typeof v?.model !== 'string') bad('model');
  if (typeof v?.serial_number !== 'string') bad('serial_number');
  if (typeof v?.cpu !== 'object' || typeof v.cpu?.count !== 'number') bad('cpu.count');
  if (typeof v?.memory_mib !== 'number') bad('memory_mib');
  if (!Array.isArray(v?.disks)) bad('disks');
  if (!Array.isArray(v?.nics) || !v.nics.every((n) => typeof n?.mac === 'string')) bad('nics[].mac');
  if (v?.boot_mode !== 'uefi' && v?.boot_mode !== 'bios') bad('boot_mode');
}
