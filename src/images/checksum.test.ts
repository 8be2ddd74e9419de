import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInChecksumFile, hashFile, imageNames, parseChecksum } from './checksum.js';
import { thrownBy } from '../../test/support/thrown.js';
import { isImageError } from './errors.js';

const sha256 = createHash('sha256').update('image').digest('hex');
const sha512 = createHash('sha512').update('image').digest('hex');
const md5 = createHash('md5').update('image').digest('hex');
const strict = { allowMd5: false };

describe('parseChecksum', () => {
  it('tells the algorithm of a bare digest by its length', () => {
    expect(parseChecksum(sha256, strict)).toEqual({ algo: 'sha256', hex: sha256 });
    expect(parseChecksum(sha512, strict)).toEqual({ algo: 'sha512', hex: sha512 });
  });

  it('reads algo:hex and lower-cases the digest', () => {
    expect(parseChecksum(`SHA256:${sha256.toUpperCase()}`, strict)).toEqual({ algo: 'sha256', hex: sha256 });
    expect(parseChecksum(`sha512:${sha512}`, strict)).toEqual({ algo: 'sha512', hex: sha512 });
  });

  it('takes the algorithm given beside the value (image_os_hash_algo)', () => {
    expect(parseChecksum(sha512, strict, 'sha512')).toEqual({ algo: 'sha512', hex: sha512 });
  });

  it('refuses MD5 unless allowed, saying how to allow it', () => {
    const err = thrownBy(() => parseChecksum(md5, strict));
    expect(isImageError(err, 'checksum_invalid')).toBe(true);
    expect(err.message).toContain('allow_md5_checksum');
    expect(err.message).toContain(md5);
    expect(thrownBy(() => parseChecksum(`md5:${md5}`, strict)).message).toContain('allow_md5_checksum');
    expect(parseChecksum(md5, { allowMd5: true })).toEqual({ algo: 'md5', hex: md5 });
  });

  it('refuses digests whose length fits no algorithm or not the named one', () => {
    expect(thrownBy(() => parseChecksum('abc123', strict)).message).toMatch(/6 hex digits/);
    expect(thrownBy(() => parseChecksum(`sha512:${sha256}`, strict)).message).toMatch(/sha512 has 128/);
  });

  it('refuses unknown algorithms, non-hex values and empty values', () => {
    expect(thrownBy(() => parseChecksum(`crc32:${sha256}`, strict)).message).toContain('unsupported checksum algorithm "crc32"');
    expect(thrownBy(() => parseChecksum('z'.repeat(64), strict)).message).toContain('not a hexadecimal digest');
    expect(thrownBy(() => parseChecksum('  ', strict)).message).toContain('empty');
    expect(thrownBy(() => parseChecksum('sha256:', strict)).message).toContain('not a hexadecimal');
  });

  it('does not take a checksum URL as an inline value', () => {
    expect(thrownBy(() => parseChecksum('http://127.0.0.1/SHA256SUMS', strict)).message).toContain('is a URL');
  });
});

describe('findInChecksumFile', () => {
  const other = 'f'.repeat(64);

  it('reads GNU lines in text and binary mode, skipping other files and comments', () => {
    const text = `# comment ${sha256}  disk.img\n${other}  other.img\n${sha256} *disk.img\n`;
    expect(findInChecksumFile(text, ['disk.img'], 'SUMS')).toEqual({ hex: sha256 });
    expect(findInChecksumFile(`${other}  other.img\n${sha256}  disk.img`, ['disk.img'], 'SUMS')).toEqual({ hex: sha256 });
  });

  it('reads BSD lines with their algorithm tag', () => {
    const text = `SHA256 (other.img) = ${other}\nSHA512 (disk.img) = ${sha512}\n`;
    expect(findInChecksumFile(text, ['disk.img'], 'SUMS')).toEqual({ hex: sha512, algo: 'SHA512' });
  });

  it('reads a name-first line and a file holding only a digest', () => {
    expect(findInChecksumFile(`disk.img  ${sha256}`, ['disk.img'], 'SUMS')).toEqual({ hex: sha256 });
    expect(findInChecksumFile(`${sha256}\n`, ['whatever.img'], 'SUMS')).toEqual({ hex: sha256 });
  });

  it('does not match a name that only ends like the image name', () => {
    const err = thrownBy(() => findInChecksumFile(`${other}  my-disk.img\n`, ['disk.img'], 'http://x/SUMS'));
    expect(err.message).toBe('Checksum file http://x/SUMS has no line for disk.img.');
  });

  it('fails clearly on empty files and single lines that are no digest', () => {
    expect(thrownBy(() => findInChecksumFile('\n\n', ['a'], 'SUMS')).message).toContain('is empty');
    expect(thrownBy(() => findInChecksumFile('nonsense', ['a'], 'SUMS')).message).toContain('which is no checksum');
  });

  it('echoes at most a short printable excerpt of what a checksum file holds', () => {
    const hostile = `\u001b[2J${'z'.repeat(10_000)}`;
    expect(thrownBy(() => findInChecksumFile(hostile, ['a'], 'SUMS')).message).toBe(`Checksum file SUMS holds "[2J${'z'.repeat(36)}…", which is no checksum.`);
    // A line naming the image with a digest of no known length: the digest is shown cut short.
    const found = findInChecksumFile(`${'a'.repeat(100_000)}  disk.img\n`, ['disk.img'], 'SUMS');
    const err = thrownBy(() => parseChecksum(found.hex, { allowMd5: false }));
    expect(err.message).toMatch(/^The image checksum "a{139}…" has 100000 hex digits/);
  });
});

describe('imageNames', () => {
  it('gives the last path segment, raw and decoded', () => {
    expect(imageNames('http://h/images/disk.img?x=1')).toEqual(['disk.img']);
    expect(imageNames('http://h/images/my%20disk.img')).toEqual(['my%20disk.img', 'my disk.img']);
  });
});

describe('hashFile', () => {
  it('hashes a file on disk', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ingot-hash-'));
    try {
      const f = path.join(dir, 'x');
      await writeFile(f, 'image');
      expect(await hashFile(f, 'sha256')).toBe(sha256);
      expect(await hashFile(f, 'md5')).toBe(md5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
