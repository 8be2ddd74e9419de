import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenHttp } from '../../../test/support/http-server.js';
import type { DiskTarget } from './disk-target.js';
import { streamImage } from './image-writer.js';

const MIB = 1024 * 1024;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The URL of a server for `handler`, closed after the test. */
async function serve(handler: http.RequestListener): Promise<string> {
  const served = await listenHttp(handler);
  closers.push(served.close);
  return served.url;
}

/** A block device in memory; writes at or past `failFrom` fail with EIO. */
function memoryDisk(size: number, failFrom = Infinity) {
  const bytes = Buffer.alloc(size, 0xee);
  let syncs = 0;
  const disk: DiskTarget = {
    path: '/dev/mem0',
    size,
    sectorSize: 512,
    isFile: false,
    read: async (offset, length) => Buffer.from(bytes.subarray(offset, offset + length)),
    async write(offset, data) {
      await new Promise((r) => setImmediate(r));
      if (offset + data.length > failFrom) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      bytes.set(data, offset);
    },
    async writeDirect(offset, data) {
      await disk.write(offset, data);
      return data.length;
    },
    zero: async (offset, length) => void bytes.fill(0, offset, offset + length),
    blank: async () => void bytes.fill(0),
    sync: async () => void syncs++,
    close: async () => undefined,
  };
  return { disk, bytes, syncs: () => syncs };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const base = { retries: 2, retryIntervalMs: 10, timeoutMs: 5000 };

describe('streamImage', () => {
  it('writes the image, verifies its checksum and syncs; a download broken midway is retried from the start', async () => {
    const image = randomBytes(70 * MIB + 12_345);
    let requests = 0;
    const url = await serve((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-length': image.length });
      if (requests === 1) res.write(image.subarray(0, 9 * MIB), () => res.destroy());
      else res.end(image);
    });
    const m = memoryDisk(128 * MIB);
    const logs: string[] = [];
    const r = await streamImage({ ...base, info: { id: 'img', urls: [`${url}/img.raw`] }, disk: m.disk, expected: { algo: 'sha256', value: sha256(image) }, log: (l) => logs.push(l) });
    expect(r).toEqual({ url: `${url}/img.raw`, bytes: image.length, digest: sha256(image), skippedBytes: 0 });
    expect(requests).toBe(2);
    expect(logs.join('\n')).toMatch(/reading .*img\.raw failed after \d+ bytes/);
    expect(m.bytes.subarray(0, image.length).equals(image)).toBe(true);
    expect(m.bytes.subarray(image.length).every((b) => b === 0xee)).toBe(true);
    // At least one background sync (every 64 MiB) and the final one.
    expect(m.syncs()).toBeGreaterThanOrEqual(2);
  });

  it('fails a disk write error as ImageWriteError without retrying, and zeroes the first MiB', async () => {
    const image = randomBytes(24 * MIB);
    let requests = 0;
    const url = await serve((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-length': image.length });
      res.end(image);
    });
    const m = memoryDisk(64 * MIB, 10 * MIB);
    const err = await streamImage({ ...base, info: { id: 'img', urls: [`${url}/img.raw`] }, disk: m.disk, expected: { algo: 'sha256', value: sha256(image) } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'ImageWriteError' });
    expect(String((err as { details?: string }).details)).toContain('EIO');
    expect(requests).toBe(1);
    expect(m.bytes.subarray(0, MIB).every((b) => b === 0)).toBe(true);
    // No image byte past the failing write (the MiB zeroed at the end of what was sent to the disk may lie there).
    expect(m.bytes.subarray(10 * MIB).every((b) => b === 0 || b === 0xee)).toBe(true);
    expect(m.bytes.subarray(MIB, 2 * MIB).equals(image.subarray(MIB, 2 * MIB))).toBe(true);
  });
});
