/**
 * The hardware manager of a real Linux machine: /proc, /sys, lsblk and (when present) ipmitool and
 * dmidecode. Every fact that cannot be read degrades to null/empty with a line in `problems`.
 */
import type { Inventory } from '../../protocol/agent/inventory.js';
import type { AgentSystem } from '../system.js';
import { readCpu } from './cpu.js';
import { readDisks } from './disks.js';
import type { HardwareManager, InventoryResult } from './manager.js';
import { readMemory } from './memory.js';
import { readInterfaces } from './network.js';
import { readBmc, readBootMode, readSystemVendor } from './system-info.js';

/** Options of {@link linuxHardwareManager}. */
export interface LinuxManagerOptions {
  /** The PXE boot MAC (from BOOTIF), reported as `boot.pxe_interface`. */
  bootMac?: string | null;
  /** Whether LLDP was asked for (`ipa-collect-lldp`). */
  collectLldp?: boolean;
}

/** A hardware manager reading `system` (the host by default, a fake in tests). */
export function linuxHardwareManager(system: AgentSystem, options: LinuxManagerOptions = {}): HardwareManager {
  return {
    name: 'ingot_linux_hardware_manager',
    version: '1.0',
    listInterfaces: () => readInterfaces(system, []),
    async collectInventory(): Promise<InventoryResult> {
      const problems: string[] = [];
      const [cpu, memory, disks, interfaces, systemVendor, bootMode, bmc] = await Promise.all([
        readCpu(system, problems),
        readMemory(system, problems),
        readDisks(system, problems),
        readInterfaces(system, problems),
        readSystemVendor(system, problems),
        readBootMode(system),
        readBmc(system, problems),
      ]);
      if (options.collectLldp) problems.push('LLDP collection is not implemented yet: lldp_raw omitted');
      const inventory: Inventory = {
        cpu,
        memory,
        disks,
        interfaces,
        bmc_address: bmc.address,
        bmc_v6address: null,
        bmc_mac: bmc.mac,
        system_vendor: systemVendor,
        // NOTE: pxe_interface carries the normalized BOOTIF MAC; Ironic's get_pxe_mac() accepts both
        // this and pxelinux's 01-aa-bb-… form.
        boot: { current_boot_mode: bootMode, pxe_interface: options.bootMac ?? null },
        hostname: system.hostname(),
      };
      return { inventory, problems };
    },
  };
}
