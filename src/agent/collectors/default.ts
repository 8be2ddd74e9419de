/** The `default` collector: root disk and boot interface, as IPA's `collect_default`. */
import type { InventoryDisk } from '../../protocol/agent/inventory.js';
import type { Collector } from './collector.js';

/** IPA's minimum size for a root device candidate (`hardware.get_os_install_device`): 4 GiB. */
export const ROOT_DISK_MIN_BYTES = 4 * 1024 ** 3;

/** The disk IPA would install on without root device hints: the smallest disk of at least 4 GiB. */
export function defaultRootDisk(disks: InventoryDisk[]): InventoryDisk | null {
  const candidates = disks.filter((d) => d.size >= ROOT_DISK_MIN_BYTES);
  candidates.sort((a, b) => a.size - b.size || a.name.localeCompare(b.name));
  return candidates[0] ?? null;
}

export const collectDefault: Collector = async (payload, { inventory, config }) => {
  payload.root_disk = defaultRootDisk(inventory.disks);
  payload.boot_interface = config.bootMac ?? inventory.boot.pxe_interface ?? null;
};
