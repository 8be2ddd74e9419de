import type { InventoryDisk } from '../../protocol/agent/inventory.js';
import { findDevicesByHints, matchRootDeviceHints, RootDeviceHintError } from '../../protocol/agent/root-device-hints.js';
import type { HookResult, InspectionHook } from './types.js';

const GIB = 2 ** 30;
/** IPA's minimum size for an install disk (`utils.guess_root_disk(min_size_required=4 GiB)`). */
export const MIN_ROOT_DISK_BYTES = 4 * GIB;

/** The smallest disk of at least 4 GiB, the disk IPA picks when no hints are given; null if none. */
export function guessRootDisk<D extends { size: number }>(disks: readonly D[]): D | null {
  let best: D | null = null;
  for (const d of disks) if (d.size >= MIN_ROOT_DISK_BYTES && (best === null || d.size < best.size)) best = d;
  return best;
}

/**
 * `root-device`: picks the root disk and sets `properties.local_gb` (Ironic's RootDeviceHook). With root
 * device hints (`properties.root_device`) the first matching disk is used, after dropping the disks that
 * match any hint in `properties.skip_block_devices`; bad hints or no match fail inspection. Without hints,
 * the agent's `root_disk` is used, else the smallest disk of at least 4 GiB. `local_gb` is the size in
 * whole GiB, minus 1 GiB for partitioning when `disk_partitioning_spacing` is on; a node without a disk
 * gets 0. The chosen disk is kept in plugin data as `root_disk`.
 *
 * NOTE: Ironic stores local_gb as a string ("446"); Ingot stores the integer, which every client that
 * reads the property (Nova's ironic driver does `int(...)`) accepts.
 */
export const rootDeviceHook: InspectionHook = {
  name: 'root-device',
  run({ node, payload, config }) {
    const notes: NonNullable<HookResult['notes']> = [];
    const hints = node.properties.root_device;
    let rootDisk: InventoryDisk | null = null;
    const hasHints = hints !== undefined && hints !== null && !(typeof hints === 'object' && !Array.isArray(hints) && Object.keys(hints).length === 0);
    if (hasHints) {
      try {
        let disks = payload.inventory.disks;
        const skip = node.properties.skip_block_devices;
        if (Array.isArray(skip) && skip.length > 0) {
          const skipped = new Set<string>();
          for (const hint of skip) for (const d of findDevicesByHints(disks, hint)) skipped.add(d.name);
          if (skipped.size > 0) notes.push({ level: 'info', message: `skip_block_devices excludes ${[...skipped].join(', ')}` });
          disks = disks.filter((d) => !skipped.has(d.name));
        }
        rootDisk = matchRootDeviceHints(disks, hints);
      } catch (err) {
        if (!(err instanceof RootDeviceHintError)) throw err;
        return { failure: `No disks could be found using root device hints ${JSON.stringify(hints)} because they failed to validate. Error: ${err.message}` };
      }
      if (!rootDisk) return { failure: `No disks satisfied root device hints ${JSON.stringify(hints)}` };
    } else {
      rootDisk = payload.root_disk ?? guessRootDisk(payload.inventory.disks);
    }

    let localGb = 0;
    if (rootDisk) {
      localGb = Math.floor(rootDisk.size / GIB);
      if (localGb === 0) {
        notes.push({ level: 'warning', message: `root disk ${rootDisk.name} is smaller than 1 GiB or its size is unknown` });
      } else {
        if (config.disk_partitioning_spacing) localGb -= 1;
        notes.push({ level: 'info', message: `root disk ${rootDisk.name}, local_gb ${localGb}` });
      }
    } else {
      notes.push({ level: 'info', message: 'no root device found; the node is assumed diskless (local_gb 0)' });
    }
    return { properties: { local_gb: localGb }, pluginData: { root_disk: rootDisk, local_gb: localGb }, notes };
  },
};
