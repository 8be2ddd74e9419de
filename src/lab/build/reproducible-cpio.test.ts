import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { requireBuildTools } from './build-tools.js';
import { writeReproducibleCpio } from './reproducible-cpio.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** The same small tree, created in a different order with different times and modes. */
async function tree(variant: number): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ingot-cpio-test-'));
  dirs.push(root);
  const files: [string, string, number][] = [['etc/hosts', '127.0.0.1 localhost\n', 0o600], ['init', '#!/bin/sh\necho hi\n', 0o700], ['bin/busybox', 'ELF', 0o775]];
  for (const [rel, text, mode] of variant ? [...files].reverse() : files) {
    await mkdir(path.join(root, path.dirname(rel)), { recursive: true, mode: variant ? 0o700 : 0o755 });
    await writeFile(path.join(root, rel), text, { mode: variant ? mode : 0o644 | (mode & 0o100) });
    await utimes(path.join(root, rel), 1000 + variant, 2000 + variant);
  }
  await symlink('/bin/busybox', path.join(root, 'bin/sh'));
  return root;
}

describe('writeReproducibleCpio', () => {
  it('gives the same bytes for the same tree, wherever and however it was made', async () => {
    const tools = requireBuildTools(['busybox']);
    const outs: Buffer[] = [];
    for (const variant of [0, 1]) {
      const root = await tree(variant);
      const out = `${root}.cpio.gz`;
      dirs.push(out);
      const r = await writeReproducibleCpio({ root, out, busybox: tools.busybox!, compression: 'gzip' });
      expect(r.entries).toBe(6);
      outs.push(await readFile(out));
    }
    expect(createHash('sha256').update(outs[0]!).digest('hex')).toBe(createHash('sha256').update(outs[1]!).digest('hex'));
    // A newc archive the kernel can read: busybox lists it with root owner, fixed mtime and normalised modes.
    const listing = execFileSync(tools.busybox!, ['cpio', '-tv'], { input: gunzipSync(outs[0]!), encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] });
    expect(listing).toMatch(/^-rwxr-xr-x 0\/0 +\d+ 2024-01-01 00:00:00 init$/m);
    expect(listing).toMatch(/^-rw-r--r-- 0\/0 +\d+ 2024-01-01 00:00:00 etc\/hosts$/m);
    expect(listing).toMatch(/^drwxr-xr-x 0\/0 +0 2024-01-01 00:00:00 bin$/m);
    expect(listing).toMatch(/^lrwxrwxrwx .* bin\/sh -> \/bin\/busybox/m);
    expect(listing.indexOf(' bin\n')).toBeLessThan(listing.indexOf(' bin/busybox\n'));
  });

  it('writes lz4 in the legacy frame format the kernel reads, holding the same archive as gzip', async () => {
    const tools = requireBuildTools(['busybox', 'lz4']);
    const root = await tree(0);
    const [gz, lz] = [`${root}.cpio.gz`, `${root}.cpio.lz4`];
    dirs.push(gz, lz);
    await writeReproducibleCpio({ root, out: gz, busybox: tools.busybox!, compression: 'gzip' });
    const r = await writeReproducibleCpio({ root, out: lz, busybox: tools.busybox!, compression: 'lz4', compressor: tools.lz4! });
    const bytes = await readFile(lz);
    expect(r.bytes).toBe(bytes.length);
    expect(bytes.readUInt32LE(0)).toBe(0x184c2102); // legacy frame magic (lz4 -l)
    const raw = execFileSync(tools.lz4!, ['-d', '-c'], { input: bytes });
    expect(raw.equals(gunzipSync(await readFile(gz)))).toBe(true);
    expect(r.rawBytes).toBe(raw.length);
  });
});
