import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneRamdiskCache, STALE_TMP_MS } from './ramdisk-cache.js';

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const hash = (c: string) => c.repeat(64);

describe('pruneRamdiskCache', () => {
  it('keeps the most recently used ramdisks, the current one, kernels and live temporary directories', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-ramdisk-cache-'));
    const now = Date.now() / 1000;
    // a is the oldest use, e the newest; b is the build just made (kept whatever its time).
    const ages: Record<string, number> = { a: 500, b: 900, c: 300, d: 200, e: 100 };
    for (const [c, age] of Object.entries(ages)) {
      await mkdir(path.join(dir, hash(c)));
      await writeFile(path.join(dir, hash(c), 'manifest.json'), '{}');
      await utimes(path.join(dir, hash(c), 'manifest.json'), now - age, now - age);
    }
    await mkdir(path.join(dir, 'kernel-linux-image-6.1.0-57-amd64_6.1.192-3'));
    const stale = `${hash('f')}.tmp-123-abcd1234`;
    const live = 'kernel-linux-image-6.1.0-57-amd64_6.1.192-3.tmp-456-0011aabb';
    await mkdir(path.join(dir, stale));
    await utimes(path.join(dir, stale), now - STALE_TMP_MS / 1000 - 60, now - STALE_TMP_MS / 1000 - 60);
    await mkdir(path.join(dir, live));
    const removed: string[] = [];
    await pruneRamdiskCache(dir, hash('b'), 3, (line) => removed.push(line));
    expect((await readdir(dir)).sort()).toEqual([hash('b'), hash('d'), hash('e'), 'kernel-linux-image-6.1.0-57-amd64_6.1.192-3', live].sort());
    expect(removed).toHaveLength(2);
  });
});
