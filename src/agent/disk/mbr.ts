/**
 * The DOS partition table (MBR) in sector 0: the disk identifier at byte 440, four 16-byte primary
 * entries from byte 446, and the 0x55 0xAA boot signature at 510. LBAs and sizes are 32-bit, so an MBR
 * addresses at most 2^32 sectors (2 TiB with 512-byte sectors).
 */

/** One primary entry. */
export interface MbrEntry {
  /** Slot 0–3 (partition number − 1). */
  slot: number;
  bootable: boolean;
  /** Partition type, e.g. 0x83 Linux, 0x05/0x0f extended, 0xee GPT protective. */
  type: number;
  startLba: number;
  sectors: number;
}

/** A parsed MBR. */
export interface Mbr {
  /** The disk identifier (NT disk signature), bytes 440–443 little endian. */
  diskId: number;
  /** Used entries (type ≠ 0 and size ≠ 0). */
  entries: MbrEntry[];
}

const ENTRY = 446;
/** Largest sector count (and last addressable sector + 1) of an MBR. */
export const MBR_MAX_SECTORS = 2 ** 32;

/** Parses sector 0; null without the 0x55AA signature. */
export function parseMbr(sector0: Buffer): Mbr | null {
  if (sector0.length < 512 || sector0[510] !== 0x55 || sector0[511] !== 0xaa) return null;
  const entries: MbrEntry[] = [];
  for (let slot = 0; slot < 4; slot++) {
    const at = ENTRY + slot * 16;
    const type = sector0[at + 4] as number;
    const sectors = sector0.readUInt32LE(at + 12);
    if (type === 0 || sectors === 0) continue;
    entries.push({ slot, bootable: sector0[at] === 0x80, type, startLba: sector0.readUInt32LE(at + 8), sectors });
  }
  return { diskId: sector0.readUInt32LE(440), entries };
}

/** IPA's disk identifier text (`hexdump -s 440 -n 4 -e '"0x%08x"'`): `0x` and 8 hex digits. */
export function diskIdentifier(sector0: Buffer): string {
  return `0x${sector0.readUInt32LE(440).toString(16).padStart(8, '0')}`;
}

/** CHS address of `lba` in the 255 heads × 63 sectors geometry; 1023/254/63 when beyond it. */
export function chs(lba: number): [number, number, number] {
  const perCylinder = 255 * 63;
  const cylinder = Math.floor(lba / perCylinder);
  if (cylinder > 1023) return [0xfe, 0xff, 0xff];
  const head = Math.floor((lba % perCylinder) / 63);
  const sector = (lba % 63) + 1;
  return [head, ((cylinder >> 2) & 0xc0) | sector, cylinder & 0xff];
}

/** Writes entry `e` into a copy of `sector0` and returns it. */
export function withMbrEntry(sector0: Buffer, e: MbrEntry): Buffer {
  const out = Buffer.from(sector0);
  const at = ENTRY + e.slot * 16;
  out[at] = e.bootable ? 0x80 : 0;
  out.set(chs(e.startLba), at + 1);
  out[at + 4] = e.type;
  out.set(chs(e.startLba + e.sectors - 1), at + 5);
  out.writeUInt32LE(e.startLba, at + 8);
  out.writeUInt32LE(e.sectors, at + 12);
  out[510] = 0x55;
  out[511] = 0xaa;
  return out;
}

/**
 * Places a new primary partition of `sectors` at the end of the disk (or of the 2 TiB an MBR can
 * address), its start and end aligned to `alignSectors`. Throws when the four slots are taken or the
 * space after the last partition is too small.
 */
export function planMbrPartition(mbr: Mbr, diskSectors: number, sectors: number, alignSectors: number, type: number): MbrEntry {
  const slot = [0, 1, 2, 3].find((s) => !mbr.entries.some((e) => e.slot === s));
  if (slot === undefined) {
    throw new Error(`the disk uses MBR partitioning and already has 4 primary partitions; a config drive partition cannot be added`);
  }
  const limit = Math.min(diskSectors, MBR_MAX_SECTORS);
  const end = Math.floor(limit / alignSectors) * alignSectors;
  const startLba = end - sectors;
  const used = Math.max(1, ...mbr.entries.map((e) => e.startLba + e.sectors));
  if (startLba < used) {
    throw new Error(`no room for a ${sectors}-sector partition at the end of the disk: the last partition ends at sector ${used}, the partition would start at ${startLba}`);
  }
  return { slot, bootable: false, type, startLba, sectors };
}
