/**
 * One view of a disk's partitions, GPT or MBR, and the file system label of a partition: ISO 9660
 * (volume identifier of the primary volume descriptor at byte 32 768) or FAT (boot sector label), the
 * two forms a config drive takes (`config-2`).
 */
import type { DiskTarget } from './disk-target.js';
import { readGpt } from './gpt.js';
import { parseMbr } from './mbr.js';

/** One partition. */
export interface Partition {
  /** 1-based, as the kernel numbers them (GPT entry index + 1, MBR slot + 1). */
  number: number;
  /** Byte offset and length on the disk. */
  offset: number;
  size: number;
}

/** A disk's partitioning. */
export interface PartitionTable {
  type: 'gpt' | 'mbr' | 'none';
  partitions: Partition[];
}

/** Reads the partition table (GPT wins over its protective MBR). Extended MBR containers are left out. */
export async function readPartitionTable(disk: DiskTarget): Promise<PartitionTable> {
  const gpt = await readGpt(disk);
  const ss = disk.sectorSize;
  if (gpt) {
    return { type: 'gpt', partitions: gpt.entries.map((e) => ({ number: e.index + 1, offset: e.firstLba * ss, size: (e.lastLba - e.firstLba + 1) * ss })) };
  }
  const mbr = parseMbr(await disk.read(0, 512));
  if (!mbr || mbr.entries.some((e) => e.type === 0xee)) return { type: 'none', partitions: [] };
  return {
    type: 'mbr',
    partitions: mbr.entries.filter((e) => ![0x05, 0x0f, 0x85].includes(e.type)).map((e) => ({ number: e.slot + 1, offset: e.startLba * ss, size: e.sectors * ss })),
  };
}

/** The file system label of the bytes at `offset` (ISO 9660 or FAT), or null. */
export async function filesystemLabel(disk: DiskTarget, offset: number, size: number): Promise<string | null> {
  if (size >= 32768 + 2048) {
    const pvd = await disk.read(offset + 32768, 2048);
    if (pvd[0] === 1 && pvd.toString('latin1', 1, 6) === 'CD001') return pvd.toString('latin1', 40, 72).trim();
  }
  const boot = await disk.read(offset, 512);
  if (boot.length === 512 && boot[510] === 0x55 && boot[511] === 0xaa) {
    if (boot.toString('latin1', 82, 87) === 'FAT32' && boot[66] === 0x29) return boot.toString('latin1', 71, 82).trim();
    if (boot.toString('latin1', 54, 57) === 'FAT' && boot[38] === 0x29) return boot.toString('latin1', 43, 54).trim();
  }
  return null;
}

/**
 * The partitions whose file system is labelled `label` (compared case-insensitively, as IPA's
 * `get_labelled_partition` does).
 */
export async function findLabelledPartitions(disk: DiskTarget, table: PartitionTable, label: string): Promise<Partition[]> {
  const found: Partition[] = [];
  for (const p of table.partitions) {
    const l = await filesystemLabel(disk, p.offset, p.size);
    if (l !== null && l.toUpperCase() === label.toUpperCase()) found.push(p);
  }
  return found;
}
