/** The one contract every hardware manager fulfils: report the machine's inventory. */
import type { Inventory, InventoryInterface } from '../../protocol/agent/inventory.js';

/** An inventory plus what could not be found out, in words an operator can act on. */
export interface InventoryResult {
  inventory: Inventory;
  /** e.g. "lsblk not found: disks unknown (install util-linux)". Empty when everything was read. */
  problems: string[];
}

/** A source of hardware facts (the real machine, or a simulated profile). */
export interface HardwareManager {
  /** Reported in the payload's `configuration.managers` (IPA's hardware manager name/version). */
  readonly name: string;
  readonly version: string;
  /** Collects the inventory; never throws for missing tools or files, it reports them in `problems`. */
  collectInventory(): Promise<InventoryResult>;
  /**
   * The network interfaces only, as in the inventory: what a lookup needs (their MACs), without reading
   * disks, memory or the BMC. In a ramdisk under emulation that is most of a second sooner.
   */
  listInterfaces(): Promise<InventoryInterface[]>;
}
