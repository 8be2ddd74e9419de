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
    expect(parseImageSource('file:///srv/images/a.img', { allowed: ['/srv/images'] })).toMatchObject({ kind: 'file', path: '/srv/images/a.img', name: 'a.img' });
    expect(thrownBy(() => parseImageSource('file:///srv/images/a.img')).message).toContain('file:// images are disabled');
    expect(thrownBy(() => parseImageSource('file:///srv/imagesX/a.img', { allowed: ['/srv/images'] })).message).toContain('outside images.file_url_allowed_paths');
    expect(thrownBy(() => parseImageSource('file:///srv/images/../secret', { allowed: ['/srv/images'] })).message).toContain('/srv/secret is outside');
    expect(thrownBy(() => parseImageSource('file:///etc/shadow', { allowed: ['/'] })).message).toContain('files under /etc may never be used');
    expect(thrownBy(() => parseImageSource('file:///dev/sda', { allowed: ['/dev'] })).message).toContain('files under /dev');
    expect(thrownBy(() => parseImageSource('file://otherhost/a.img', { allowed: ['/'] })).message).toContain('must be local');
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
    const ok = parseImageSource(`file://${allowed}/ok.img`, { allowed: [allowed] });
    expect(await resolveFileSource(ok as Extract<typeof ok, { kind: 'file' }>, { allowed: [allowed] })).toBe(path.join(allowed, 'ok.img'));
    const link = parseImageSource(`file://${allowed}/link.img`, { allowed: [allowed] }) as Extract<ReturnType<typeof parseImageSource>, { kind: 'file' }>;
    await expect(resolveFileSource(link, { allowed: [allowed] })).rejects.toThrow(/outside images.file_url_allowed_paths/);
    const missing = parseImageSource(`file://${allowed}/none.img`, { allowed: [allowed] }) as Extract<ReturnType<typeof parseImageSource>, { kind: 'file' }>;
    await expect(resolveFileSource(missing, { allowed: [allowed] })).rejects.toMatchObject({ reason: 'not_found' });
  });

  it('never allows the data directory, even inside an allowed directory, also reached through a link', async () => {
    const data = path.join(dir, 'ingot-data');
    await mkdir(data);
    await writeFile(path.join(data, 'ingot.sqlite'), 'every BMC password');
    await writeFile(path.join(dir, 'disk.img'), 'x');
    await symlink(path.join(data, 'ingot.sqlite'), path.join(dir, 'innocent.img'));
    await symlink(data, path.join(dir, 'data-link'));
    const files = { allowed: [dir], blocked: [data] };
    expect(thrownBy(() => parseImageSource(`file://${data}/ingot.sqlite`, files)).message).toBe(`Image source file://${data}/ingot.sqlite is refused: files under ${data} may never be used as images.`);
    for (const name of ['innocent.img', 'data-link/ingot.sqlite']) {
      const src = parseImageSource(`file://${dir}/${name}`, files) as Extract<ReturnType<typeof parseImageSource>, { kind: 'file' }>;
      await expect(resolveFileSource(src, files)).rejects.toThrow(`files under ${data} may never be used as images`);
    }
    // A data directory named through a link is refused by its real path too.
    const viaLink = { allowed: [dir], blocked: [path.join(dir, 'data-link')] };
    const direct = parseImageSource(`file://${data}/ingot.sqlite`, viaLink) as Extract<ReturnType<typeof parseImageSource>, { kind: 'file' }>;
    await expect(resolveFileSource(direct, viaLink)).rejects.toThrow('may never be used as images');
    const ok = parseImageSource(`file://${dir}/disk.img`, files) as Extract<ReturnType<typeof parseImageSource>, { kind: 'file' }>;
    expect(await resolveFileSource(ok, files)).toBe(path.join(dir, 'disk.img'));
  });
});
