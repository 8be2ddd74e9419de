import { gzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { decodeConfigDrive } from './config-drive.js';

describe('decodeConfigDrive', () => {
  const iso = Buffer.concat([Buffer.alloc(32768), Buffer.from([1]), Buffer.from('CD001')]);
  it('reads base64 of a gzipped image (Ironic), base64 of a plain image, and raw bytes from a URL', () => {
    expect(decodeConfigDrive(gzipSync(iso).toString('base64')).equals(iso)).toBe(true);
    expect(decodeConfigDrive(iso.toString('base64')).equals(iso)).toBe(true);
    expect(decodeConfigDrive(iso).equals(iso)).toBe(true);
    expect(decodeConfigDrive(Buffer.from(gzipSync(iso).toString('base64'))).equals(iso)).toBe(true);
  });
  it('refuses empty and corrupt data', () => {
    expect(() => decodeConfigDrive('')).toThrow(/empty/);
    expect(() => decodeConfigDrive(Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]).toString('base64'))).toThrow(/does not decompress/);
    expect(() => decodeConfigDrive('not base64 ☃')).toThrow(/neither base64/);
  });
});
