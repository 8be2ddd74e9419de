/**
 * Disk erasure for the clean steps (IPA `hardware.py` `erase_devices_metadata`, `erase_devices`).
 *
 * - Metadata: zeroes the first and the last MiB of the disk, which holds every partition table (MBR,
 *   primary and backup GPT) and the signatures `wipefs` removes (file systems, RAID, LVM). IPA runs
 *   `wipefs --all`, zeroes the first and last 33 sectors and runs `sgdisk -Z`; a MiB at each end covers
 *   all of that without the tools.
 * - Whole disk: every byte zero. A disk file is blanked (truncated to 0 and back: instant, sparse); a
 *   block device is overwritten with zeros (IPA uses ATA/NVMe secure erase or `shred`).
 */
import { sleep } from '../../shared/clock.js';
import { MIB, type DiskTarget } from './disk-target.js';

/** Zeroes the partition tables and signatures at both ends of `disk`. */
export async function eraseMetadata(disk: DiskTarget): Promise<void> {
  const head = Math.min(MIB, disk.size);
  await disk.zero(0, head);
  const tail = Math.min(MIB, disk.size - head);
  if (tail > 0) await disk.zero(disk.size - tail, tail);
  await disk.sync();
}

/** Makes every byte of `disk` zero; honours `signal` between MiB writes on block devices. */
export async function eraseDisk(disk: DiskTarget, signal?: AbortSignal): Promise<void> {
  if (disk.isFile) await disk.blank();
  else {
    for (let at = 0; at < disk.size; at += 64 * MIB) {
      if (signal?.aborted) await sleep(0, signal);
      await disk.zero(at, Math.min(64 * MIB, disk.size - at));
    }
  }
  await disk.sync();
}
