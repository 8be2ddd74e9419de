import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferFile, normaliseTftpPath, rootResolver, TftpError, type TftpReader } from './files.js';

describe('normaliseTftpPath', () => {
  it('takes absolute names relative to the root and drops empty and "." segments', () => {
    expect(normaliseTftpPath('/pxelinux.0')).toEqual({ ok: true, path: 'pxelinux.0' });
    expect(normaliseTftpPath('//boot/./x86_64//vmlinuz')).toEqual({ ok: true, path: 'boot/x86_64/vmlinuz' });
    expect(normaliseTftpPath('\\boot\\x64\\wdsnbp.com')).toEqual({ ok: true, path: 'boot/x64/wdsnbp.com' });
  });

  it('refuses every ".." segment and empty names', () => {
    for (const bad of ['..', '../etc/passwd', 'a/../../etc/passwd', 'a/../b', '/..', '..\\secret', 'a\\..\\..\\b']) {
      const r = normaliseTftpPath(bad);
      expect(r.ok, bad).toBe(false);
      expect(r.ok ? '' : r.reason).toMatch(/'\.\.' is not allowed/);
    }
    expect(normaliseTftpPath('/')).toEqual({ ok: false, reason: expect.stringMatching(/no file name/) });
    expect(normaliseTftpPath('')).toMatchObject({ ok: false });
  });

  it('keeps names that merely contain dots', () => {
    expect(normaliseTftpPath('..hidden/a..b/...')).toEqual({ ok: true, path: '..hidden/a..b/...' });
  });
});

describe('rootResolver', () => {
  let dir: string;
  let root: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), 'ingot-tftp-files-')));
    root = path.join(dir, 'root');
    await mkdir(path.join(root, 'sub'), { recursive: true });
    await writeFile(path.join(root, 'sub', 'file.bin'), 'x'.repeat(1000));
    await writeFile(path.join(dir, 'secret'), 'outside');
    await symlink(path.join(dir, 'secret'), path.join(root, 'escape'));
    await symlink('..', path.join(root, 'sub', 'up'));
    await symlink(path.join(root, 'sub', 'file.bin'), path.join(root, 'inside'));
    await symlink(dir, path.join(root, 'dirlink'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function readAll(reader: TftpReader, size: number): Promise<Buffer> {
    const buf = Buffer.alloc(size + 10);
    const n = await reader.read(buf, 0, buf.length, 0);
    await reader.close?.();
    return buf.subarray(0, n);
  }

  it('serves regular files with their size and positional reads', async () => {
    const f = await rootResolver(root)('sub/file.bin');
    expect(f?.size).toBe(1000);
    const reader = (await f?.open()) as TftpReader;
    const part = Buffer.alloc(10);
    expect(await reader.read(part, 0, 10, 995)).toBe(5);
    expect(await readAll(reader, 1000)).toEqual(Buffer.from('x'.repeat(1000)));
  });

  it('follows symlinks that stay inside the root, including through a parent link', async () => {
    expect((await rootResolver(root)('inside'))?.size).toBe(1000);
    expect((await rootResolver(root)('sub/up/sub/file.bin'))?.size).toBe(1000);
  });

  it('refuses symlinks whose target leaves the root with an access violation', async () => {
    for (const p of ['escape', 'dirlink/secret', 'sub/up/escape']) {
      const err = await rootResolver(root)(p).catch((e: unknown) => e);
      expect(err, p).toBeInstanceOf(TftpError);
      expect((err as TftpError).code).toBe(2);
      expect((err as TftpError).message).toMatch(/outside the TFTP root/);
    }
  });

  it('answers null for missing files and refuses directories', async () => {
    expect(await rootResolver(root)('nope')).toBeNull();
    expect(await rootResolver(root)('sub/file.bin/deeper')).toBeNull();
    await expect(rootResolver(root)('sub')).rejects.toMatchObject({ code: 1, message: 'Not a regular file: sub' });
  });
});

describe('bufferFile', () => {
  it('reads positionally and reports its size', async () => {
    const f = bufferFile('abcdef');
    expect(f.size).toBe(6);
    const reader = (await f.open()) as TftpReader;
    const out = Buffer.alloc(4);
    expect(await reader.read(out, 1, 3, 4)).toBe(2);
    expect(out.subarray(1, 3).toString()).toBe('ef');
    expect(await reader.read(out, 0, 4, 6)).toBe(0);
  });
});
