import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DIRECT_ALIGN, alignedBuffers, openDisk } from './disk-target.js';
import { requireDirectIo } from './direct-io.test-support.js';

const MIB = 1024 * 1024;

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A sparse disk file of `bytes` in a fresh directory under `parent`. */
async function diskFile(parent: string, bytes: number): Promise<string> {
  const dir = await mkdtemp(path.join(parent, 'ingot-disk-target-'));
  dirs.push(dir);
  const file = path.join(dir, 'disk.img');
  const fh = await open(file, 'w');
  await fh.truncate(bytes);
  await fh.close();
  return file;
}

/** `bytes` of random data in an aligned buffer. */
function alignedRandom(bytes: number): Buffer {
  const [buf] = alignedBuffers(1, Math.ceil(bytes / DIRECT_ALIGN) * DIRECT_ALIGN);
  randomBytes(bytes).copy(buf!);
  return buf!.subarray(0, bytes);
}

describe('DiskTarget.writeDirect', () => {
  it('writes aligned blocks around the page cache and the unaligned tail through it', async () => {
    const tmp = os.tmpdir();
    await requireDirectIo(tmp);
    const file = await diskFile(tmp, 8 * MIB);
    const data = alignedRandom(2 * MIB + 100);
    const disk = await openDisk(file);
    try {
      expect(await disk.writeDirect(MIB, data)).toBe(100);
      // An unaligned offset goes through the cache whole.
      expect(await disk.writeDirect(5 * MIB + 512, data.subarray(0, DIRECT_ALIGN))).toBe(DIRECT_ALIGN);
      // What the cache holds and what went around it read back alike through the ordinary handle.
      expect((await disk.read(MIB, data.length)).equals(data)).toBe(true);
      await disk.sync();
    } finally {
      await disk.close();
    }
    const bytes = await readFile(file);
    expect(bytes.subarray(MIB, MIB + data.length).equals(data)).toBe(true);
    expect(bytes.subarray(5 * MIB + 512, 5 * MIB + 512 + DIRECT_ALIGN).equals(data.subarray(0, DIRECT_ALIGN))).toBe(true);
    expect(bytes.subarray(0, MIB).every((b) => b === 0)).toBe(true);
  });

  it('goes on through the page cache once the kernel refuses a direct write (memory not aligned)', async () => {
    await requireDirectIo(os.tmpdir(), { outsideTheCache: true });
    const file = await diskFile(os.tmpdir(), 4 * MIB);
    // One byte past a 16-byte aligned malloc block: never on a page boundary, which O_DIRECT needs.
    const unaligned = Buffer.alloc(MIB + 1).subarray(1);
    randomBytes(MIB).copy(unaligned);
    const data = alignedRandom(MIB);
    const disk = await openDisk(file);
    try {
      expect(await disk.writeDirect(0, unaligned)).toBe(MIB);
      // The disk no longer tries: aligned memory goes through the cache too.
      expect(await disk.writeDirect(MIB, data)).toBe(MIB);
    } finally {
      await disk.close();
    }
    const bytes = await readFile(file);
    expect(bytes.subarray(0, MIB).equals(unaligned)).toBe(true);
    expect(bytes.subarray(MIB, 2 * MIB).equals(data)).toBe(true);
  });

  it('alignedBuffers hands out separate buffers of the size asked, and refuses unaligned sizes', () => {
    const [a, b] = alignedBuffers(2, 64 * 1024);
    a!.fill(1);
    expect(b!.every((x) => x === 0)).toBe(true);
    expect(a!.length).toBe(64 * 1024);
    expect(() => alignedBuffers(1, 1000)).toThrow(/multiple of 4096/);
  });
});
