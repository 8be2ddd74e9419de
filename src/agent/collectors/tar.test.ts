import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { ustar } from './tar.js';

describe('ustar', () => {
  it('writes archives GNU tar lists and extracts byte for byte (also long names and empty files)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-tar-'));
    try {
      const longName = `${'d'.repeat(60)}/${'e'.repeat(60)}/file.log`;
      const big = Buffer.alloc(70_000, 7);
      const archive = ustar([
        { name: 'dmesg', data: Buffer.from('[    0.000000] Linux version 6.1\n'), mtime: 1_700_000_000 },
        { name: 'var/log/empty.log', data: Buffer.alloc(0) },
        { name: longName, data: big, mode: 0o600 },
      ]);
      expect(archive.length % 512).toBe(0);
      const file = path.join(dir, 'logs.tar.gz');
      await writeFile(file, gzipSync(archive));
      let listing: string;
      try {
        listing = execFileSync('tar', ['-tzvf', file], { encoding: 'utf8' });
      } catch (err) {
        throw new Error(`GNU tar is needed to check the archive (apt-get install tar): ${String(err)}`);
      }
      expect(listing).toMatch(/-rw-r--r-- root\/root\s+33 2023-11-14 \d\d:\d\d dmesg/);
      expect(listing).toContain(longName);
      execFileSync('tar', ['-xzf', file, '-C', dir]);
      expect(await readFile(path.join(dir, 'dmesg'), 'utf8')).toBe('[    0.000000] Linux version 6.1\n');
      expect((await readFile(path.join(dir, 'var/log/empty.log'))).length).toBe(0);
      expect((await readFile(path.join(dir, longName))).equals(big)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ends with two zero blocks and refuses names ustar cannot hold', () => {
    const archive = ustar([]);
    expect(archive.equals(Buffer.alloc(1024))).toBe(true);
    expect(() => ustar([{ name: 'x'.repeat(300), data: Buffer.alloc(0) }])).toThrow(/too long/);
    expect(gunzipSync(gzipSync(archive)).length).toBe(1024);
  });
});
