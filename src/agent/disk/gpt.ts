/**
 * The GUID partition table (UEFI 2.10 §5.3): a protective MBR in LBA 0, the primary header in LBA 1 with
 * its entry array (usually 128 × 128 bytes from LBA 2), and a backup entry array and header at the end
 * of the disk. Each header carries the CRC32 of itself (with the CRC field zeroed) and of the entry
 * array. Whole-disk images are smaller than the disk they land on, so their backup sits at the image's
 * end: {@link relocateBackup} moves it to the disk's end (what `sgdisk -e` does) before a partition is
 * added there.
 */
import { crc32 } from 'node:zlib';
import type { DiskTarget } from './disk-target.js';

/** The primary header's fields (LBAs as numbers: exact up to 2^53 sectors). */
export interface GptHeader {
  revision: number;
  headerSize: number;
  myLba: number;
  alternateLba: number;
  firstUsableLba: number;
  lastUsableLba: number;
  diskGuid: string;
  entriesLba: number;
  entryCount: number;
  entrySize: number;
}

/** One used partition entry. */
export interface GptEntry {
  /** Index in the entry array (partition number − 1). */
  index: number;
  typeGuid: string;
  uniqueGuid: string;
  firstLba: number;
  lastLba: number;
  attributes: bigint;
  name: string;
}

/** A GPT as read from a disk: its primary header, all used entries and the raw entry array. */
export interface Gpt {
  header: GptHeader;
  entries: GptEntry[];
  array: Buffer;
  sectorSize: number;
}

/** Linux filesystem data (`8300` in gdisk). */
export const LINUX_FS_GUID = '0fc63daf-8483-4772-8e79-3d69d8477de4';
const SIGNATURE = 'EFI PART';

/** GUID bytes as GPT stores them: the first three fields little endian. */
export function guidToBytes(guid: string): Buffer {
  const hex = guid.replace(/-/g, '');
  const b = Buffer.from(hex, 'hex');
  if (b.length !== 16) throw new Error(`not a GUID: ${guid}`);
  return Buffer.concat([Buffer.from(b.subarray(0, 4)).reverse(), Buffer.from(b.subarray(4, 6)).reverse(), Buffer.from(b.subarray(6, 8)).reverse(), b.subarray(8)]);
}

/** The GUID text of 16 stored bytes. */
export function bytesToGuid(b: Buffer): string {
  const h = Buffer.concat([Buffer.from(b.subarray(0, 4)).reverse(), Buffer.from(b.subarray(4, 6)).reverse(), Buffer.from(b.subarray(6, 8)).reverse(), b.subarray(8, 16)]).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const u64 = (b: Buffer, at: number) => Number(b.readBigUInt64LE(at));

/** Parses a header sector; null when the signature or the header CRC is wrong. */
export function parseGptHeader(sector: Buffer): GptHeader | null {
  if (sector.length < 92 || sector.toString('latin1', 0, 8) !== SIGNATURE) return null;
  const headerSize = sector.readUInt32LE(12);
  if (headerSize < 92 || headerSize > sector.length) return null;
  const copy = Buffer.from(sector.subarray(0, headerSize));
  copy.writeUInt32LE(0, 16);
  if (crc32(copy) !== sector.readUInt32LE(16)) return null;
  return {
    revision: sector.readUInt32LE(8),
    headerSize,
    myLba: u64(sector, 24),
    alternateLba: u64(sector, 32),
    firstUsableLba: u64(sector, 40),
    lastUsableLba: u64(sector, 48),
    diskGuid: bytesToGuid(sector.subarray(56, 72)),
    entriesLba: u64(sector, 72),
    entryCount: sector.readUInt32LE(80),
    entrySize: sector.readUInt32LE(84),
  };
}

/** Serializes a header (with both CRCs) into one sector. */
export function buildGptHeader(h: GptHeader, arrayCrc: number, sectorSize: number): Buffer {
  const s = Buffer.alloc(sectorSize);
  s.write(SIGNATURE, 0, 'latin1');
  s.writeUInt32LE(h.revision, 8);
  s.writeUInt32LE(92, 12);
  s.writeBigUInt64LE(BigInt(h.myLba), 24);
  s.writeBigUInt64LE(BigInt(h.alternateLba), 32);
  s.writeBigUInt64LE(BigInt(h.firstUsableLba), 40);
  s.writeBigUInt64LE(BigInt(h.lastUsableLba), 48);
  guidToBytes(h.diskGuid).copy(s, 56);
  s.writeBigUInt64LE(BigInt(h.entriesLba), 72);
  s.writeUInt32LE(h.entryCount, 80);
  s.writeUInt32LE(h.entrySize, 84);
  s.writeUInt32LE(arrayCrc, 88);
  s.writeUInt32LE(crc32(s.subarray(0, 92)), 16);
  return s;
}

/** The used entries of an entry array. */
export function parseGptEntries(array: Buffer, count: number, size: number): GptEntry[] {
  const entries: GptEntry[] = [];
  for (let i = 0; i < count; i++) {
    const e = array.subarray(i * size, (i + 1) * size);
    if (e.subarray(0, 16).every((b) => b === 0)) continue;
    entries.push({
      index: i,
      typeGuid: bytesToGuid(e.subarray(0, 16)),
      uniqueGuid: bytesToGuid(e.subarray(16, 32)),
      firstLba: u64(e, 32),
      lastLba: u64(e, 40),
      attributes: e.readBigUInt64LE(48),
      name: e.toString('utf16le', 56, 128).replace(/\0.*$/s, ''),
    });
  }
  return entries;
}

const arraySectors = (h: GptHeader, sectorSize: number) => Math.ceil((h.entryCount * h.entrySize) / sectorSize);

/** Reads the primary GPT; null when LBA 1 holds no valid header or the entry array's CRC is wrong. */
export async function readGpt(disk: DiskTarget): Promise<Gpt | null> {
  const ss = disk.sectorSize;
  const header = parseGptHeader(await disk.read(ss, ss));
  if (!header || header.entrySize < 128 || header.entryCount > 4096) return null;
  const array = await disk.read(header.entriesLba * ss, header.entryCount * header.entrySize);
  if (crc32(array) !== (await disk.read(ss + 88, 4)).readUInt32LE(0)) return null;
  return { header, entries: parseGptEntries(array, header.entryCount, header.entrySize), array, sectorSize: ss };
}

/** True when the backup header is not in the disk's last sector (an image smaller than the disk). */
export function backupMisplaced(gpt: Gpt, diskSectors: number): boolean {
  return gpt.header.alternateLba !== diskSectors - 1;
}

/** Moves the backup to the end of a disk of `diskSectors` and extends the usable area (`sgdisk -e`). */
export function relocateBackup(gpt: Gpt, diskSectors: number): Gpt {
  const last = diskSectors - 1;
  return { ...gpt, header: { ...gpt.header, alternateLba: last, lastUsableLba: last - arraySectors(gpt.header, gpt.sectorSize) - 1 } };
}

/**
 * Adds a partition of `sectors` at the end of the usable area, aligned to `alignSectors`, in the first
 * free slot; returns the new table and entry. Throws when no slot is free or the space is taken.
 */
export function addGptPartition(gpt: Gpt, sectors: number, alignSectors: number, typeGuid: string, uniqueGuid: string, name: string): { gpt: Gpt; entry: GptEntry } {
  const h = gpt.header;
  let index = -1;
  for (let i = 0; i < h.entryCount; i++) {
    if (gpt.array.subarray(i * h.entrySize, i * h.entrySize + 16).every((b) => b === 0)) {
      index = i;
      break;
    }
  }
  if (index < 0) throw new Error(`all ${h.entryCount} GPT partition entries are in use`);
  const end = Math.floor((h.lastUsableLba + 1) / alignSectors) * alignSectors;
  const firstLba = end - sectors;
  const used = Math.max(h.firstUsableLba, ...gpt.entries.map((e) => e.lastLba + 1));
  if (firstLba < used) {
    throw new Error(`no room for a ${sectors}-sector partition at the end of the disk: the last partition ends at sector ${used - 1}, the partition would start at ${firstLba}`);
  }
  const entry: GptEntry = { index, typeGuid, uniqueGuid, firstLba, lastLba: end - 1, attributes: 0n, name };
  const array = Buffer.from(gpt.array);
  const e = array.subarray(index * h.entrySize, (index + 1) * h.entrySize);
  e.fill(0);
  guidToBytes(typeGuid).copy(e, 0);
  guidToBytes(uniqueGuid).copy(e, 16);
  e.writeBigUInt64LE(BigInt(firstLba), 32);
  e.writeBigUInt64LE(BigInt(entry.lastLba), 40);
  e.writeBigUInt64LE(0n, 48);
  e.write(name.slice(0, 36), 56, 'utf16le');
  return { gpt: { ...gpt, array, entries: [...gpt.entries, entry].sort((a, b) => a.index - b.index) }, entry };
}

/**
 * Writes both copies of `gpt` (primary header and array at their place, backup array and header at
 * the header's alternate LBA) and points the protective MBR's 0xEE entry over the whole disk.
 */
export async function writeGpt(disk: DiskTarget, gpt: Gpt): Promise<void> {
  const ss = gpt.sectorSize;
  const h = gpt.header;
  const arrayCrc = crc32(gpt.array);
  const backupArrayLba = h.alternateLba - arraySectors(h, ss);
  const backup: GptHeader = { ...h, myLba: h.alternateLba, alternateLba: h.myLba, entriesLba: backupArrayLba };
  await disk.write(h.entriesLba * ss, gpt.array);
  await disk.write(h.myLba * ss, buildGptHeader(h, arrayCrc, ss));
  await disk.write(backupArrayLba * ss, gpt.array);
  await disk.write(h.alternateLba * ss, buildGptHeader(backup, arrayCrc, ss));
  const mbr = await disk.read(0, 512);
  for (let slot = 0; slot < 4; slot++) {
    const at = 446 + slot * 16;
    if (mbr[at + 4] === 0xee) {
      mbr.writeUInt32LE(Math.min(disk.size / ss - 1, 0xffffffff), at + 12);
      await disk.write(0, mbr);
      break;
    }
  }
}
