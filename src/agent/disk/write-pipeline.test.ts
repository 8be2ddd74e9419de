import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDisk, type DiskTarget } from './disk-target.js';
import { requireDirectIo } from './direct-io.test-support.js';
import { SPARSE_BLOCK, WritePipeline } from './write-pipeline.js';

const KIB = 1024;

interface Write {
  offset: number;
  length: number;
}

/**
 * An in-memory disk whose writes complete only when the test lets them (or at once with `auto`); with
 * `direct`, its direct writes report no bytes through a page cache, as a disk taking O_DIRECT does.
 */
function memoryDisk(size: number, auto = true, direct = false) {
  const bytes = Buffer.alloc(size);
  const writes: Write[] = [];
  const held: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let syncs = 0;
  let failAt: number | null = null;
  const disk: DiskTarget = {
    path: '/dev/mem0',
    size,
    sectorSize: 512,
    isFile: false,
    read: async (offset, length) => Buffer.from(bytes.subarray(offset, offset + length)),
    async write(offset, data) {
      writes.push({ offset, length: data.length });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (!auto) await new Promise<void>((resolve) => held.push(resolve));
        else await new Promise((resolve) => setImmediate(resolve));
        if (failAt !== null && offset >= failAt) throw new Error(`EIO at ${offset}`);
        bytes.set(data, offset);
      } finally {
        inFlight--;
      }
    },
    async writeDirect(offset, data) {
      await disk.write(offset, data);
      return direct ? 0 : data.length;
    },
    zero: async (offset, length) => void bytes.fill(0, offset, offset + length),
    blank: async () => void bytes.fill(0),
    sync: async () => void syncs++,
    close: async () => undefined,
  };
  return {
    disk,
    bytes,
    writes,
    /** Completes the oldest held write. */
    releaseOne: () => held.shift()?.(),
    held: () => held.length,
    maxInFlight: () => maxInFlight,
    syncs: () => syncs,
    failFrom: (offset: number) => void (failAt = offset),
  };
}

/** Splits `data` into pieces of varying size (1 byte to 100 KiB), as a socket delivers them. */
function* pieces(data: Buffer): Generator<Buffer> {
  const sizes = [1, 7, 100 * KIB, 4096, 65_536, 3, 12_345];
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = Math.min(sizes[i % sizes.length] as number, data.length - at);
    yield data.subarray(at, at + n);
    at += n;
  }
}

describe('WritePipeline', () => {
  it('writes a stream in pieces of any size as whole blocks at their offsets, one write at a time, in order', async () => {
    const m = memoryDisk(4 * 1024 * KIB);
    const data = randomBytes(3 * 1024 * KIB + 777);
    const p = new WritePipeline({ disk: m.disk, blockBytes: 256 * KIB, buffers: 3 });
    for (const piece of pieces(data)) await p.push(piece);
    await p.finish();
    expect(m.bytes.subarray(0, data.length).equals(data)).toBe(true);
    expect(p.position).toBe(data.length);
    expect(p.written).toBe(data.length);
    // Every write but the last is one full block, in order.
    expect(m.writes.slice(0, -1).every((w, i) => w.length === 256 * KIB && w.offset === i * 256 * KIB)).toBe(true);
    expect(m.writes.at(-1)).toEqual({ offset: 12 * 256 * KIB, length: 777 });
    expect(m.maxInFlight()).toBe(1);
  });

  it('takes only what its buffers hold while writes are pending, and more once one completes (bounded memory)', async () => {
    const m = memoryDisk(8 * 1024 * KIB, false);
    const p = new WritePipeline({ disk: m.disk, blockBytes: 64 * KIB, buffers: 2 });
    const data = randomBytes(512 * KIB);
    // Two buffers: both fill, one is written and one waits for it, and nothing more is taken.
    expect(p.take(data)).toBe(128 * KIB);
    expect(p.take(data.subarray(128 * KIB))).toBe(0);
    let ready = false;
    const waiting = p.ready().then(() => (ready = true));
    await new Promise((r) => setImmediate(r));
    expect(ready).toBe(false);
    expect(m.held()).toBe(1);
    m.releaseOne();
    await waiting;
    expect(p.take(data.subarray(128 * KIB, 160 * KIB))).toBe(32 * KIB);
    // The rest: keep taking what fits and letting writes complete.
    for (let at = 160 * KIB; at < data.length; ) {
      const n = p.take(data.subarray(at));
      at += n;
      if (n === 0) {
        while (m.held() === 0) await new Promise((r) => setImmediate(r));
        m.releaseOne();
        await p.ready();
      }
    }
    const done = p.finish();
    while (m.held() > 0 || m.writes.length < 8) {
      m.releaseOne();
      await new Promise((r) => setImmediate(r));
    }
    await done;
    expect(m.maxInFlight()).toBe(1);
    expect(m.bytes.subarray(0, data.length).equals(data)).toBe(true);
  });

  it('leaves all-zero blocks unwritten with skipZeroBlocks and counts them', async () => {
    const m = memoryDisk(1024 * KIB);
    m.bytes.fill(0xee);
    const data = Buffer.alloc(640 * KIB);
    randomBytes(SPARSE_BLOCK).copy(data, SPARSE_BLOCK); // block 1
    randomBytes(10).copy(data, 5 * SPARSE_BLOCK + 100); // block 5
    data[data.length - 1] = 1; // block 9 (the last)
    const p = new WritePipeline({ disk: m.disk, blockBytes: 256 * KIB, skipZeroBlocks: true });
    await p.push(data);
    await p.finish();
    expect(m.writes).toEqual([
      { offset: SPARSE_BLOCK, length: SPARSE_BLOCK },
      { offset: 5 * SPARSE_BLOCK, length: SPARSE_BLOCK },
      { offset: 9 * SPARSE_BLOCK, length: SPARSE_BLOCK },
    ]);
    expect(p.skippedBytes).toBe(7 * SPARSE_BLOCK);
    // Skipped blocks keep what the disk had (the caller blanks a disk file first).
    expect(m.bytes.subarray(0, SPARSE_BLOCK).every((b) => b === 0xee)).toBe(true);
    expect(m.bytes.subarray(SPARSE_BLOCK, 2 * SPARSE_BLOCK).equals(data.subarray(SPARSE_BLOCK, 2 * SPARSE_BLOCK))).toBe(true);
  });

  it('runs beforeFirstWrite once, with the first block, before any write; its failure means nothing is written', async () => {
    const m = memoryDisk(1024 * KIB);
    const seen: number[] = [];
    const p = new WritePipeline({
      disk: m.disk,
      blockBytes: 64 * KIB,
      beforeFirstWrite: async (head) => {
        seen.push(head.length, m.writes.length);
        await new Promise((r) => setTimeout(r, 20));
      },
    });
    await p.push(randomBytes(300 * KIB));
    await p.finish();
    expect(seen).toEqual([64 * KIB, 0]);
    expect(m.writes).toHaveLength(5);

    const m2 = memoryDisk(1024 * KIB);
    const refused = new WritePipeline({ disk: m2.disk, blockBytes: 64 * KIB, beforeFirstWrite: async () => Promise.reject(new Error('qcow2')) });
    await expect(async () => {
      for (let i = 0; i < 10; i++) await refused.push(randomBytes(64 * KIB));
      await refused.finish();
    }).rejects.toThrow('qcow2');
    await refused.drain();
    expect(m2.writes).toHaveLength(0);
    expect(refused.failure?.error).toBeInstanceOf(Error);
  });

  it('stops at the first failed write: take and finish throw it, drain waits for the writes in flight', async () => {
    const m = memoryDisk(1024 * KIB);
    m.failFrom(128 * KIB);
    const p = new WritePipeline({ disk: m.disk, blockBytes: 64 * KIB, buffers: 4 });
    const data = randomBytes(1024 * KIB);
    await expect(async () => {
      for (const piece of pieces(data)) await p.push(piece);
      await p.finish();
    }).rejects.toThrow(/EIO at/);
    await p.drain();
    const writesAfterDrain = m.writes.length;
    expect(() => p.take(data)).toThrow(/EIO at/);
    await new Promise((r) => setTimeout(r, 20));
    expect(m.writes.length).toBe(writesAfterDrain);
    expect(writesAfterDrain).toBeLessThan(16);
    expect(p.written).toBeGreaterThanOrEqual(m.writes.reduce((max, w) => Math.max(max, w.offset + w.length), 0));
  });

  it('starts a background sync after every flushEveryBytes written, one at a time', async () => {
    const m = memoryDisk(2048 * KIB);
    const p = new WritePipeline({ disk: m.disk, blockBytes: 64 * KIB, buffers: 2, flushEveryBytes: 256 * KIB });
    await p.push(randomBytes(1024 * KIB));
    await p.finish();
    expect(m.syncs()).toBeGreaterThanOrEqual(2);
    expect(m.syncs()).toBeLessThanOrEqual(4);
  });

  it('starts no background sync for bytes written around the page cache', async () => {
    const m = memoryDisk(2048 * KIB, true, true);
    const p = new WritePipeline({ disk: m.disk, blockBytes: 64 * KIB, buffers: 2, flushEveryBytes: 256 * KIB });
    const data = randomBytes(1024 * KIB);
    await p.push(data);
    await p.finish();
    expect(m.syncs()).toBe(0);
    expect(m.bytes.subarray(0, data.length).equals(data)).toBe(true);
  });
});

describe('WritePipeline on a disk file', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('writes around the page cache on a file system that takes O_DIRECT, only the tail through it', async () => {
    await requireDirectIo(os.tmpdir(), { outsideTheCache: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-write-pipeline-'));
    const file = path.join(dir, 'disk.img');
    const fh = await open(file, 'w');
    await fh.truncate(16 * 1024 * KIB);
    await fh.close();
    const data = randomBytes(8 * 1024 * KIB + 5);
    const disk = await openDisk(file);
    try {
      const p = new WritePipeline({ disk, blockBytes: 1024 * KIB, buffers: 3 });
      for (const piece of pieces(data)) await p.push(piece);
      await p.finish();
    } finally {
      await disk.close();
    }
    // fincore (util-linux): bytes of the file in the page cache. Written through the cache, all 8 MiB would be.
    const cached = Number(execFileSync('fincore', ['-b', '-n', '-o', 'RES', file], { encoding: 'utf8' }).trim());
    expect(cached).toBeLessThan(64 * KIB);
    expect((await readFile(file)).subarray(0, data.length).equals(data)).toBe(true);
  });

  it('writes through openDisk what reads back byte for byte', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-write-pipeline-'));
    const file = path.join(dir, 'disk.img');
    const fh = await open(file, 'w');
    await fh.truncate(16 * 1024 * KIB);
    await fh.close();
    const data = randomBytes(9 * 1024 * KIB + 5);
    const disk = await openDisk(file);
    try {
      const p = new WritePipeline({ disk, blockBytes: 1024 * KIB, buffers: 3, flushEveryBytes: 4 * 1024 * KIB });
      for (const piece of pieces(data)) await p.push(piece);
      await p.finish();
    } finally {
      await disk.close();
    }
    expect((await readFile(file)).subarray(0, data.length).equals(data)).toBe(true);
  });
});
