import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFits, convertToRaw, detectFormat, findQemuImg, inspectImage, readQcow2Header } from './convert.js';
import { isImageError } from './errors.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-fmt-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: Buffer): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, bytes);
  return p;
}

/** A qcow2 v3 header: virtual size, optional backing file offset and incompatible feature bits. */
function qcow2Header(virtualSize: bigint, backingOffset = 0n, incompatible = 0n): Buffer {
  const h = Buffer.alloc(512);
  h.writeUInt32BE(0x514649fb, 0);
  h.writeUInt32BE(3, 4);
  h.writeBigUInt64BE(backingOffset, 8);
  h.writeUInt32BE(16, 20); // cluster bits
  h.writeBigUInt64BE(virtualSize, 24);
  h.writeBigUInt64BE(incompatible, 72);
  h.writeUInt32BE(104, 100); // header length
  return h;
}

describe('detectFormat', () => {
  it('tells formats by their magic numbers and takes anything else as raw', async () => {
    const at = (off: number, magic: Buffer | string, size = 0x9000) => {
      const b = Buffer.alloc(size);
      (typeof magic === 'string' ? Buffer.from(magic, 'latin1') : magic).copy(b, off);
      return b;
    };
    expect(await detectFormat(await file('q', qcow2Header(1n << 30n)))).toBe('qcow2');
    expect(await detectFormat(await file('v', at(0, 'KDMV')))).toBe('vmdk');
    expect(await detectFormat(await file('vd', at(0, '# Disk DescriptorFile\n')))).toBe('vmdk');
    expect(await detectFormat(await file('x', at(0, 'vhdxfile')))).toBe('vhdx');
    expect(await detectFormat(await file('vdi', at(64, Buffer.from([0x7f, 0x10, 0xda, 0xbe]))))).toBe('vdi');
    expect(await detectFormat(await file('l', at(0, Buffer.from([0x4c, 0x55, 0x4b, 0x53, 0xba, 0xbe]))))).toBe('luks');
    expect(await detectFormat(await file('i', at(0x8001, 'CD001')))).toBe('iso');
    expect(await detectFormat(await file('g', at(512, 'EFI PART')))).toBe('gpt');
    expect(await detectFormat(await file('r', Buffer.from('just bytes')))).toBe('raw');
    expect(await detectFormat(await file('e', Buffer.alloc(0)))).toBe('raw');
  });
});

describe('readQcow2Header', () => {
  it('reads the virtual size and the features that make qemu-img open other files', async () => {
    expect(await readQcow2Header(await file('plain', qcow2Header(5n << 30n)))).toEqual({ version: 3, virtualSize: 5 * 2 ** 30, hasBackingFile: false, hasExternalDataFile: false });
    expect((await readQcow2Header(await file('backed', qcow2Header(1n << 20n, 512n)))).hasBackingFile).toBe(true);
    expect((await readQcow2Header(await file('datafile', qcow2Header(1n << 20n, 0n, 4n)))).hasExternalDataFile).toBe(true);
    await expect(readQcow2Header(await file('notq', Buffer.alloc(200)))).rejects.toThrow('is not a qcow2 image');
  });
});

describe('inspectImage', () => {
  it('accepts raw, iso and gpt as they are, with the file size as virtual size', async () => {
    const raw = await file('disk.raw', Buffer.alloc(4096, 1));
    expect(await inspectImage(raw, 'http://h/disk.raw')).toEqual({ format: 'raw', virtualSize: 4096, fileSize: 4096 });
  });

  it('refuses formats outside the permitted ones, naming the image', async () => {
    const vmdk = await file('d.vmdk', Buffer.from('# Disk DescriptorFile\nRW 8 FLAT "/etc/shadow" 0\n'));
    const err = await inspectImage(vmdk, 'http://h/d.vmdk').catch((e: Error) => e);
    expect(isImageError(err, 'format')).toBe(true);
    expect((err as Error).message).toContain('http://h/d.vmdk is in vmdk format');
  });

  it('refuses qcow2 with a backing file or an external data file before running qemu-img', async () => {
    const backed = await file('b.qcow2', qcow2Header(1n << 20n, 512n));
    await expect(inspectImage(backed, 'b.qcow2', { qemuImg: '/nonexistent/qemu-img' })).rejects.toThrow('with a backing file');
    const data = await file('d.qcow2', qcow2Header(1n << 20n, 0n, 4n));
    await expect(inspectImage(data, 'd.qcow2', { qemuImg: '/nonexistent/qemu-img' })).rejects.toThrow('external data file');
  });
});

describe('qemu-img discovery', () => {
  it('names the missing binary and how to install it', async () => {
    const err = await findQemuImg('/nonexistent/qemu-img').catch((e: Error) => e);
    expect(isImageError(err, 'convert')).toBe(true);
    expect((err as Error).message).toContain('/nonexistent/qemu-img was not found');
    expect((err as Error).message).toContain('apt-get install -y qemu-utils');
    await expect(convertToRaw('/x', path.join(dir, 'out'), { qemuImg: 'no-such-qemu-img' })).rejects.toThrow(/no-such-qemu-img was not found.*qemu-utils/);
  });
});

describe('checkFits', () => {
  it('passes an image that fits and names both sizes when it does not', () => {
    expect(() => checkFits(10 * 2 ** 30, 10 * 2 ** 30, 'http://h/fits.img')).not.toThrow();
    const err = (() => {
      try {
        checkFits(12 * 2 ** 30, 10 * 2 ** 30, 'http://h/big.img');
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err?.message).toBe('Image http://h/big.img needs 12 GiB (12884901888 bytes) but the root disk holds only 10 GiB (10737418240 bytes).');
    expect(() => checkFits(1, 0, 'http://h/big.img')).toThrow('root disk size is unknown');
  });
});
