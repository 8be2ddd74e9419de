import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isImageError } from '../errors.js';
import { decodeConfigDrive, encodeConfigDrive, storedConfigDrive, validateConfigDrive } from './decode.js';
import { renderConfigDrive } from './render.js';

const date = new Date(Date.UTC(2024, 0, 1));

describe('decodeConfigDrive', () => {
  it('decodes the gzip+base64 form Ironic stores, whitespace and all', async () => {
    const iso = renderConfigDrive({ user_data: 'x' }, { date });
    const encoded = encodeConfigDrive(iso);
    expect(encoded).toMatch(/^H4sI/);
    const wrapped = encoded.replace(/(.{76})/g, '$1\n');
    const out = await decodeConfigDrive(wrapped);
    expect(out.source).toBe('encoded');
    expect(out.image.equals(iso)).toBe(true);
  });

  it('renders a JSON object, filling the node identity', async () => {
    const out = await decodeConfigDrive({ meta_data: { hostname: 'h' } }, { node: { uuid: 'node-uuid' }, date });
    expect(out.source).toBe('json');
    expect(out.image.equals(renderConfigDrive({ meta_data: { hostname: 'h', uuid: 'node-uuid' } }, { date }))).toBe(true);
  });

  it('refuses text that is not base64, and base64 that is not gzip', async () => {
    const notB64 = await decodeConfigDrive('this is not base64!').catch((e: Error) => e);
    expect(isImageError(notB64, 'configdrive')).toBe(true);
    expect((notB64 as Error).message).toContain('neither a URL nor base64');
    await expect(decodeConfigDrive(Buffer.from('plain iso bytes').toString('base64'))).rejects.toThrow('is not gzip data');
    await expect(decodeConfigDrive(Buffer.from([0x1f, 0x8b, 1, 2, 3]).toString('base64'))).rejects.toThrow('not valid gzip data');
  });

  it('refuses a drive that inflates past the limit without inflating it all', async () => {
    const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024)).toString('base64');
    const err = await decodeConfigDrive(bomb, { maxBytes: 1024 * 1024 }).catch((e: Error) => e);
    expect(isImageError(err, 'too_large')).toBe(true);
    expect((err as Error).message).toContain('1 MiB (1048576 bytes)');
    const big = await decodeConfigDrive({ user_data: 'x'.repeat(200_000) }, { maxBytes: 100_000 }).catch((e: Error) => e);
    expect((big as Error).message).toContain('shorten user_data');
  });

  it('checks the JSON shape as the API does', async () => {
    expect(() => validateConfigDrive({ meta_data: {}, extra: 1 })).toThrow('unknown keys extra');
    expect(() => validateConfigDrive({ meta_data: 'x' })).toThrow("meta_data must be a JSON object");
    expect(() => validateConfigDrive({ user_data: 5 })).toThrow('user_data must be a string');
    expect(() => validateConfigDrive(['a'])).toThrow('got an array');
    expect(() => validateConfigDrive('')).toThrow('empty string');
    expect(() => validateConfigDrive({ user_data: ['a'], network_data: null })).not.toThrow();
    await expect(decodeConfigDrive(42)).rejects.toThrow('got number');
  });
});

describe('storedConfigDrive', () => {
  it('keeps URLs and encoded strings, and encodes rendered objects', async () => {
    expect(await storedConfigDrive(' http://127.0.0.1/cd.iso ')).toBe('http://127.0.0.1/cd.iso');
    const encoded = encodeConfigDrive(Buffer.from('iso'));
    expect(await storedConfigDrive(encoded)).toBe(encoded);
    await expect(storedConfigDrive('garbage!')).rejects.toThrow('neither a URL nor base64');
    const stored = await storedConfigDrive({ meta_data: { a: 1 } }, { date });
    const back = await decodeConfigDrive(stored);
    expect(back.image.equals(renderConfigDrive({ meta_data: { a: 1 } }, { date }))).toBe(true);
  });
});
