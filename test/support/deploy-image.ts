/**
 * A small raw whole-disk image for deploy tests (an MBR with one Linux partition holding random data,
 * zeros elsewhere) and the check of a disk the agent wrote it to: the image's bytes in the image region
 * (the partition table may gain the config drive's entry, nothing else), and a config-2 ISO 9660 in the
 * partition the agent added, whose meta_data.json is read back with `isoinfo` (genisoimage).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SECTOR = 512;
const MIB = 1024 * 1024;

/** A raw image of `mib` MiB: MBR, partition 1 from 1 MiB to the end filled with random bytes except a zero tail. */
export function makeRawImage(mib: number): { bytes: Buffer; sha256: string } {
  const bytes = Buffer.alloc(mib * MIB);
  randomBytes(440).copy(bytes, 0); // boot code
  const start = MIB / SECTOR;
  const sectors = (mib * MIB) / SECTOR - start;
  const entry = 446;
  bytes[entry + 4] = 0x83;
  bytes.writeUInt32LE(start, entry + 8);
  bytes.writeUInt32LE(sectors, entry + 12);
  bytes[510] = 0x55;
  bytes[511] = 0xaa;
  // Data in the first half of the partition; the rest stays zero (the agent may skip writing it).
  randomBytes(Math.floor((mib * MIB) / 2) - MIB).copy(bytes, MIB);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** What {@link readDeployedDisk} found. */
export interface DeployedDisk {
  /** True when every byte of the image region equals the image (the second MBR entry aside). */
  imageMatches: boolean;
  /** First differing offset, for the failure message. */
  firstDifference: number | null;
  /** meta_data.json of the config drive, or null when there is none. */
  metaData: Record<string, unknown> | null;
  configDriveLabel: string | null;
}

/** Reads `disk` back against `image` (see module doc). */
export async function readDeployedDisk(disk: string, image: Buffer): Promise<DeployedDisk> {
  const fh = await open(disk, 'r');
  let firstDifference: number | null = null;
  let metaData: Record<string, unknown> | null = null;
  let label: string | null = null;
  try {
    const head = Buffer.alloc(image.length);
    await fh.read(head, 0, image.length, 0);
    // The second MBR entry (462..478) is where the agent records the config drive partition.
    for (let i = 0; i < image.length; i++) {
      if (i >= 462 && i < 478) continue;
      if (head[i] !== image[i]) {
        firstDifference = i;
        break;
      }
    }
    const lba = head.readUInt32LE(462 + 8);
    const count = head.readUInt32LE(462 + 12);
    if (head[462 + 4] !== 0 && count > 0) {
      const iso = Buffer.alloc(count * SECTOR);
      await fh.read(iso, 0, iso.length, lba * SECTOR);
      label = iso.subarray(16 * 2048 + 40, 16 * 2048 + 72).toString('latin1').trim();
      const dir = await mkdtemp(path.join(tmpdir(), 'ingot-cd-'));
      try {
        const file = path.join(dir, 'cd.iso');
        await writeFile(file, iso);
        const { stdout } = await run('isoinfo', ['-R', '-i', file, '-x', '/openstack/latest/meta_data.json'], { maxBuffer: 16 * MIB }).catch((err: unknown) => {
          throw new Error(`isoinfo could not read the config drive (apt-get install genisoimage): ${String(err)}`);
        });
        metaData = JSON.parse(stdout) as Record<string, unknown>;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await fh.close();
  }
  return { imageMatches: firstDifference === null, firstDifference, metaData, configDriveLabel: label };
}

/** True when the first MiB and the last MiB of `disk` are all zero (metadata erased). */
export async function metadataErased(disk: string): Promise<boolean> {
  const fh = await open(disk, 'r');
  try {
    const size = (await fh.stat()).size;
    for (const at of [0, Math.max(0, size - MIB)]) {
      const buf = Buffer.alloc(Math.min(MIB, size));
      await fh.read(buf, 0, buf.length, at);
      if (buf.some((b) => b !== 0)) return false;
    }
    return true;
  } finally {
    await fh.close();
  }
}
