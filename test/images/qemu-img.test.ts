import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFits, convertToRaw, detectFormat, inspectImage, qemuImgInfo } from '../../src/images/convert.js';
import { isImageError } from '../../src/images/errors.js';
import { requireTool, run } from './tools.js';

const MiB = 1024 * 1024;
let dir: string;

beforeAll(async () => {
  requireTool('qemu-img');
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-qemu-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('qcow2 images made by qemu-img', () => {
  it('round-trips raw → qcow2 (qemu-img) → raw (convertToRaw) byte for byte', async () => {
    // Random data with a hole in the middle, so the qcow2 has both allocated and unallocated clusters.
    const raw = Buffer.concat([randomBytes(MiB), Buffer.alloc(2 * MiB), randomBytes(MiB + 512)]);
    const src = path.join(dir, 'orig.raw');
    const qcow = path.join(dir, 'img.qcow2');
    const back = path.join(dir, 'back.raw');
    await writeFile(src, raw);
    run('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', src, qcow]);

    expect(await detectFormat(qcow)).toBe('qcow2');
    const found = await inspectImage(qcow, 'img.qcow2');
    expect(found.format).toBe('qcow2');
    expect(found.virtualSize).toBe(raw.length);
    expect(found.fileSize).toBe((await stat(qcow)).size);

    await convertToRaw(qcow, back, { expectedSize: found.virtualSize });
    expect(await detectFormat(back)).toBe('raw');
    expect((await readFile(back)).equals(raw)).toBe(true);
  });

  it('reports the virtual size of an empty qcow2 so the caller can check it against the disk', async () => {
    const qcow = path.join(dir, 'empty.qcow2');
    run('qemu-img', ['create', '-f', 'qcow2', qcow, '64M']);
    const info = await qemuImgInfo(qcow, 'qcow2');
    expect(info.virtualSize).toBe(64 * MiB);
    const found = await inspectImage(qcow, 'empty.qcow2');
    expect(found.virtualSize).toBe(64 * MiB);
    expect(found.fileSize).toBeLessThan(MiB);
    expect(() => checkFits(found.virtualSize, 128 * MiB, 'empty.qcow2')).not.toThrow();
    expect(() => checkFits(found.virtualSize, 32 * MiB, 'empty.qcow2')).toThrow(
      'Image empty.qcow2 needs 64 MiB (67108864 bytes) but the root disk holds only 32 MiB (33554432 bytes).',
    );
    const out = path.join(dir, 'empty.raw');
    await convertToRaw(qcow, out, { expectedSize: 64 * MiB });
    const st = await stat(out);
    expect(st.size).toBe(64 * MiB);
    expect(st.blocks * 512).toBeLessThan(MiB); // written sparse
  });

  it('refuses qcow2 images that point qemu-img at other files', async () => {
    const base = path.join(dir, 'base.qcow2');
    const overlay = path.join(dir, 'overlay.qcow2');
    const withData = path.join(dir, 'datafile.qcow2');
    run('qemu-img', ['create', '-f', 'qcow2', base, '1M']);
    run('qemu-img', ['create', '-f', 'qcow2', '-b', base, '-F', 'qcow2', overlay]);
    run('qemu-img', ['create', '-f', 'qcow2', '-o', `data_file=${path.join(dir, 'data.raw')}`, withData, '1M']);
    const e1 = await inspectImage(overlay, 'http://h/overlay.qcow2').catch((e: Error) => e);
    expect(isImageError(e1, 'format')).toBe(true);
    expect((e1 as Error).message).toContain('http://h/overlay.qcow2 is a qcow2 image with a backing file');
    const e2 = await inspectImage(withData, 'http://h/datafile.qcow2').catch((e: Error) => e);
    expect((e2 as Error).message).toContain('external data file');
    // qemu-img itself agrees on what the header says.
    expect((await qemuImgInfo(overlay, 'qcow2')).backingFile).toBe(base);
    expect((await qemuImgInfo(withData, 'qcow2')).dataFile).toBe(path.join(dir, 'data.raw'));
  });

  it('reports a corrupt qcow2 through qemu-img’s own words', async () => {
    const bad = path.join(dir, 'bad.qcow2');
    const header = Buffer.alloc(512);
    header.writeUInt32BE(0x514649fb, 0);
    header.writeUInt32BE(3, 4);
    header.writeBigUInt64BE(1n << 20n, 24);
    await writeFile(bad, header);
    const err = await convertToRaw(bad, path.join(dir, 'bad.raw')).catch((e: Error) => e);
    expect(isImageError(err, 'convert')).toBe(true);
    expect((err as Error).message).toMatch(/qemu-img convert -f qcow2 -O raw .*bad\.qcow2 .* failed \(exit 1\): qemu-img: /);
    await expect(stat(path.join(dir, 'bad.raw'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
