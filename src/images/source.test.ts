import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { thrownBy } from '../../test/support/thrown.js';
import { isImageError } from './errors.js';
import { isHttpUrl, parseImageSource, resolveFileSource } from './source.js';

describe('parseImageSource', () => {
  it('parses http and https URLs and names the image by its last path segment', () => {
    const s = parseImageSource(' https://images.example/os/disk%201.qcow2?sig=1 ');
    expect(s).toMatchObject({ kind: 'http', href: 'https://images.example/os/disk%201.qcow2?sig=1', name: 'disk 1.qcow2' });
    expect(parseImageSource('http://127.0.0.1:8080/a.img').kind).toBe('http');
  });

  it('refuses other schemes, non-URLs and credentials in the URL', () => {
    expect(thrownBy(() => parseImageSource('ftp://h/a.img')).message).toContain('uses ftp://');
    expect(thrownBy(() => parseImageSource('disk.img')).message).toContain('is not a URL');
    expect(thrownBy(() => parseImageSource('')).message).toContain('required');
    const cred = thrownBy(() => parseImageSource('http://user:secret@h/a.img'));
    expect(cred.message).toContain('credentials');
    expect(cred.message).not.toContain('secret');
    expect(isImageError(cred, 'invalid_source')).toBe(true);
  });

  it('allows file:// only inside the allowed directories, never in system paths', () => {
    expect(parseImageSource('file:///srv/images/a.img', ['/srv/images'])).toMatchObject({ kind: 'file', path: '/srv/images/a.img', name: 'a.img' });
    expect(thrownBy(() => parseImageSource('file:///srv/images/a.img')).message).toContain('file:// images are disabled');
    expect(thrownBy(() => parseImageSource('file:///srv/imagesX/a.img', ['/srv/images'])).message).toContain('outside images.file_url_allowed_paths');
    expect(thrownBy(() => parseImageSource('file:///srv/images/../secret', ['/srv/images'])).message).toContain('/srv/secret is outside');
    expect(thrownBy(() => parseImageSource('file:///etc/shadow', ['/'])).message).toContain('files under /etc may never be used');
    expect(thrownBy(() => parseImageSource('file:///dev/sda', ['/dev'])).message).toContain('files under /dev');
    expect(thrownBy(() => parseImageSource('file://otherhost/a.img', ['/'])).message).toContain('must be local');
  });

  it('tells http URLs apart', () => {
    expect(isHttpUrl('HTTPS://x')).toBe(true);
    expect(isHttpUrl('file:///x')).toBe(false);
    expect(isHttpUrl('H4sIAAAA')).toBe(false);
  });
});

describe('resolveFileSource', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ingot-src-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('follows links but re-checks the target against the allow list', async () => {
    const allowed = path.join(dir, 'allowed');
    const outside = path.join(dir, 'outside');
    await mkdir(allowed);
    await mkdir(outside);
    await writeFile(path.join(allowed, 'ok.img'), 'x');
    await writeFile(path.join(outside, 'secret.img'), 'x');
    await symlink(path.join(outside, 'secret.img'), path.join(allowed, 'link.img'));
    const ok = parseImageSource(`file://${allowed}/ok.img`, [allowed]);
    expect(await resolveFileSource(ok as Extract<typeof ok, { kind: 'file' }>, [allowed])).toBe(path.join(allowed, 'ok.img'));
    const link = parseImageSource(`file://${allowed}/link.img`, [allowed]) as Extract<ReturnType<typeof parseImageSource>, { kind: 'file' }>;
    await expect(resolveFileSource(link, [allowed])).rejects.toThrow(/outside images.file_url_allowed_paths/);
    const missing = parseImageSource(`file://${allowed}/none.img`, [allowed]) as Extract<ReturnType<typeof parseImageSource>, { kind: 'file' }>;
    await expect(resolveFileSource(missing, [allowed])).rejects.toMatchObject({ reason: 'not_found' });
  });
});
