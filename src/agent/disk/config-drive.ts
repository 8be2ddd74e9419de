/**
 * The config drive of a whole-disk image (IPA `partition_utils.create_config_drive_partition`): the
 * ISO 9660 (or FAT) image labelled `config-2` that cloud-init reads, written into the disk's existing
 * `config-2` partition, or else into a new partition at the end of the disk. It arrives gzipped and
 * base64-encoded in the command, or as a URL to fetch. At most 64 MiB.
 *
 * NOTE: IPA always creates a 64 MiB partition (`sgdisk -n 0:-64MB:0`, `parted mkpart primary fat32
 * -64MiB -0`); Ingot sizes it to the config drive rounded up to whole MiB, start and end aligned to
 * 1 MiB, which leaves more of the disk to the image's own partitions.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { MIB, type DiskTarget } from './disk-target.js';
import { LINUX_FS_GUID, addGptPartition, backupMisplaced, readGpt, relocateBackup, writeGpt } from './gpt.js';
import { parseMbr, planMbrPartition, withMbrEntry } from './mbr.js';
import { findLabelledPartitions, readPartitionTable } from './partition-table.js';

/** The label cloud-init looks for. */
export const CONFIG_DRIVE_LABEL = 'config-2';
/** Largest config drive (IPA `MAX_CONFIG_DRIVE_SIZE_MB`). */
export const MAX_CONFIG_DRIVE_BYTES = 64 * MIB;
/** MBR partition type of a new config drive partition (Linux). */
const MBR_TYPE_LINUX = 0x83;

const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

/**
 * Decodes a config drive: base64 text of a gzipped image (Ironic's form), base64 of a plain image, or
 * (from a URL) the image's bytes themselves.
 */
export function decodeConfigDrive(data: Buffer | string): Buffer {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  let bytes: Buffer;
  if (/^[A-Za-z0-9+/=\s_-]*$/.test(text)) {
    bytes = Buffer.from(text, 'base64');
  } else if (typeof data !== 'string') {
    bytes = data;
  } else {
    throw new Error('the config drive is neither base64 text nor a URL');
  }
  if (isGzip(bytes)) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_CONFIG_DRIVE_BYTES + 1 });
    } catch (err) {
      throw new Error(`the config drive does not decompress: ${(err as Error).message}`);
    }
  }
  if (bytes.length === 0) throw new Error('the config drive is empty');
  return bytes;
}

/** Where the config drive went. */
export interface ConfigDrivePlacement {
  /** Partition number on the disk. */
  partition: number;
  /** The partition was created (false: an existing `config-2` partition was reused). */
  created: boolean;
  offset: number;
  size: number;
  table: 'gpt' | 'mbr';
}

/**
 * Writes `drive` into the disk's `config-2` partition, creating one at the end of the disk when there
 * is none (GPT: a Linux filesystem entry named `config-2`, backup table moved to the disk's end first;
 * MBR: a primary entry of type 0x83). The rest of the drive's last MiB is zeroed.
 */
export async function writeConfigDrive(disk: DiskTarget, drive: Buffer): Promise<ConfigDrivePlacement> {
  if (drive.length > MAX_CONFIG_DRIVE_BYTES) {
    throw new Error(`Config drive size exceeds maximum limit of 64MiB. Size of the given config drive is ${Math.ceil(drive.length / MIB)} MiB (${drive.length} bytes).`);
  }
  const table = await readPartitionTable(disk);
  if (table.type === 'none') {
    throw new Error(`${disk.path} has no partition table after the image was written (neither GPT nor MBR), so no config drive partition can be added; is the image a whole-disk image?`);
  }
  const labelled = await findLabelledPartitions(disk, table, CONFIG_DRIVE_LABEL);
  if (labelled.length > 1) {
    throw new Error(`More than one partition with label "${CONFIG_DRIVE_LABEL}" exists on device ${disk.path}: ${labelled.map((p) => p.number).join(' and ')}.`);
  }
  let placement: ConfigDrivePlacement;
  const existing = labelled[0];
  if (existing) {
    if (existing.size < drive.length) {
      throw new Error(`the existing ${CONFIG_DRIVE_LABEL} partition ${existing.number} (${existing.size} bytes) is smaller than the config drive (${drive.length} bytes)`);
    }
    placement = { partition: existing.number, created: false, offset: existing.offset, size: existing.size, table: table.type };
  } else {
    const ss = disk.sectorSize;
    const sectors = (Math.max(1, Math.ceil(drive.length / MIB)) * MIB) / ss;
    const align = MIB / ss;
    const diskSectors = Math.floor(disk.size / ss);
    if (table.type === 'gpt') {
      let gpt = (await readGpt(disk))!;
      if (backupMisplaced(gpt, diskSectors)) gpt = relocateBackup(gpt, diskSectors);
      const added = addGptPartition(gpt, sectors, align, LINUX_FS_GUID, randomUUID(), CONFIG_DRIVE_LABEL);
      await writeGpt(disk, added.gpt);
      const e = added.entry;
      placement = { partition: e.index + 1, created: true, offset: e.firstLba * ss, size: (e.lastLba - e.firstLba + 1) * ss, table: 'gpt' };
    } else {
      const sector0 = await disk.read(0, 512);
      const entry = planMbrPartition(parseMbr(sector0)!, diskSectors, sectors, align, MBR_TYPE_LINUX);
      await disk.write(0, withMbrEntry(sector0, entry));
      placement = { partition: entry.slot + 1, created: true, offset: entry.startLba * ss, size: entry.sectors * ss, table: 'mbr' };
    }
  }
  await disk.write(placement.offset, drive);
  // Zeroes the tail of the drive's last MiB (all of a new partition's rest); an ISO reader stops at its volume size.
  await disk.zero(placement.offset + drive.length, Math.min(placement.size - drive.length, MIB - (drive.length % MIB || MIB)));
  return placement;
}
