import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveChecksum } from '../../src/images/checksum.js';
import { downloadToFile, fetchBytes, headSource } from '../../src/images/download.js';
import { isImageError, type ImageError } from '../../src/images/errors.js';
import { closedPort, FixtureServer } from './fixture-server.js';

const image = randomBytes(3 * 1024 * 1024 + 123);
const sha256 = createHash('sha256').update(image).digest('hex');
const sha512 = createHash('sha512').update(image).digest('hex');
const lastModified = 'Wed, 01 May 2024 10:00:00 GMT';

let server: FixtureServer;
let dir: string;

beforeAll(async () => {
  server = new FixtureServer();
  server
    .route('/disk.img', { body: image, headers: { 'Last-Modified': lastModified } })
    .route('/old/disk.img', { redirect: '/disk.img' })
    .route('/moved-away.img', { redirect: '/gone.img' })
    .route('/to-file.img', { redirect: 'file:///etc/passwd' })
    .route('/to-ftp.img', { redirect: 'ftp://127.0.0.1/disk.img' })
    .route('/loop.img', { redirect: '/loop.img' })
    .route('/hang.img', { hang: true })
    .route('/stall.img', { body: image, stallAfter: 64 * 1024 })
    .route('/short.img', { body: image, cutAfter: 100_000 })
    .route('/chunked.img', { body: image, chunked: true })
    .route('/error.img', { status: 503, body: 'busy' })
    .route('/SHA256SUMS', { body: `${'0'.repeat(64)}  other.img\n${sha256}  disk.img\n` })
    .route('/BSDSUMS', { body: `SHA512 (disk.img) = ${sha512}\n` })
    .route('/NOSUMS', { body: `${'0'.repeat(64)}  other.img\n` });
  await server.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-dl-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<ImageError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isImageError(err)) throw new Error(`expected an ImageError, got ${String(err)}`);
  return err;
}

describe('downloadToFile over HTTP', () => {
  it('streams the image to the file and hashes it on the way', async () => {
    const dest = path.join(dir, 'out');
    const r = await downloadToFile(server.url('/disk.img'), dest, { hash: ['sha256', 'sha512'] });
    expect(r.bytes).toBe(image.length);
    expect(r.digests).toEqual({ sha256, sha512 });
    expect(r.lastModified?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect((await readFile(dest)).equals(image)).toBe(true);
  });

  it('verifies the expected checksum, and a mismatch names both values and removes the file', async () => {
    const dest = path.join(dir, 'out');
    await downloadToFile(server.url('/disk.img'), dest, { expected: { algo: 'sha256', hex: sha256 } });
    const wrong = 'a'.repeat(64);
    const err = await failure(downloadToFile(server.url('/disk.img'), dest, { expected: { algo: 'sha256', hex: wrong } }));
    expect(err.reason).toBe('checksum_mismatch');
    expect(err.message).toBe(`Checksum mismatch for ${server.url('/disk.img')}: expected sha256 ${wrong}, computed ${sha256}.`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('follows redirects and reports where the bytes came from', async () => {
    const r = await downloadToFile(server.url('/old/disk.img'), path.join(dir, 'out'), { hash: ['sha256'] });
    expect(r.finalUrl).toBe(server.url('/disk.img'));
    expect(r.digests.sha256).toBe(sha256);
    const err = await failure(downloadToFile(server.url('/moved-away.img'), path.join(dir, 'x')));
    expect(err.reason).toBe('not_found');
    expect(err.message).toContain(`${server.url('/moved-away.img')} (redirected to ${server.url('/gone.img')})`);
  });

  it('follows only a bounded number of http(s) redirects, never to file: or another scheme', async () => {
    for (let i = 1; i <= 6; i++) server.route(`/hop${i}.img`, { redirect: i === 6 ? '/disk.img' : `/hop${i + 1}.img` });
    // Five redirects are followed (hop2 … hop6 → disk.img) …
    expect((await downloadToFile(server.url('/hop2.img'), path.join(dir, 'ok'), { hash: ['sha256'] })).digests.sha256).toBe(sha256);
    // … six are not.
    const many = await failure(downloadToFile(server.url('/hop1.img'), path.join(dir, 'many')));
    expect(many.reason).toBe('invalid_source');
    expect(many.message).toBe(`Download of ${server.url('/hop1.img')} was redirected more than 5 times; give the image's final URL.`);
    const loop = await failure(downloadToFile(server.url('/loop.img'), path.join(dir, 'loop')));
    expect(loop.message).toContain('was redirected more than 5 times');
    const toFile = await failure(downloadToFile(server.url('/to-file.img'), path.join(dir, 'file'), { files: { allowed: ['/'] } }));
    expect(toFile.reason).toBe('invalid_source');
    expect(toFile.message).toBe(`Download of ${server.url('/to-file.img')} was redirected (302) to a file: URL; only http(s) redirects are followed.`);
    expect((await failure(fetchBytes(server.url('/to-ftp.img'), { maxBytes: 1024 }))).message).toContain('to a ftp: URL; only http(s) redirects are followed');
    expect(await readdir(dir)).toEqual(['ok']);
  });

  it('names the URL and the status on 404 and other statuses', async () => {
    const err = await failure(downloadToFile(server.url('/missing.img'), path.join(dir, 'out')));
    expect(err.reason).toBe('not_found');
    expect(err.code).toBe('DriverOperationError');
    expect(err.message).toBe(`Cannot download ${server.url('/missing.img')}: HTTP 404 Not Found; check the URL.`);
    const busy = await failure(downloadToFile(server.url('/error.img'), path.join(dir, 'out')));
    expect(busy.reason).toBe('http_status');
    expect(busy.message).toContain('HTTP 503 Service Unavailable instead of 200');
    expect(await readdir(dir)).toEqual([]);
  });

  it('says connection refused, naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/disk.img`;
    const err = await failure(downloadToFile(url, path.join(dir, 'out')));
    expect(err.reason).toBe('connection');
    expect(err.message).toBe(`Cannot download ${url}: connection refused (ECONNREFUSED).`);
  });

  it('times out a server that never answers', async () => {
    const err = await failure(downloadToFile(server.url('/hang.img'), path.join(dir, 'out'), { timeoutMs: 300 }));
    expect(err.reason).toBe('timeout');
    expect(err.message).toBe(`Download of ${server.url('/hang.img')} timed out waiting for 127.0.0.1:${new URL(server.url('/')).port} to answer.`);
  });

  it('times out a body that stalls, and the caller can abort one that is slow', async () => {
    const stalled = await failure(downloadToFile(server.url('/stall.img'), path.join(dir, 'a'), { timeoutMs: 300 }));
    expect(stalled.reason).toBe('timeout');
    expect(stalled.message).toContain('timed out while receiving the body');
    // The idle timeout is longer than the test may take: only the abort can end this download.
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new Error('operator stop')), 200);
    const aborted = await failure(downloadToFile(server.url('/stall.img'), path.join(dir, 'b'), { signal: ctl.signal, timeoutMs: 3_600_000 }));
    expect(aborted.reason).toBe('aborted');
    expect(aborted.message).toBe(`Download of ${server.url('/stall.img')} was aborted.`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a body over the size limit, announced or not', async () => {
    const announced = await failure(downloadToFile(server.url('/disk.img'), path.join(dir, 'a'), { maxBytes: 1024 * 1024 }));
    expect(announced.reason).toBe('too_large');
    expect(announced.message).toContain('more than the limit of 1 MiB (1048576 bytes)');
    const chunked = await failure(downloadToFile(server.url('/chunked.img'), path.join(dir, 'b'), { maxBytes: 1024 * 1024 }));
    expect(chunked.reason).toBe('too_large');
    expect(chunked.message).toContain('exceeds the limit of 1 MiB');
    const ok = await downloadToFile(server.url('/chunked.img'), path.join(dir, 'c'), { hash: ['sha256'] });
    expect(ok.digests.sha256).toBe(sha256);
  });

  it('notices a body cut short of its Content-Length', async () => {
    const err = await failure(downloadToFile(server.url('/short.img'), path.join(dir, 'out')));
    expect(err.reason).toBe('truncated');
    expect(err.message).toMatch(new RegExp(`^Download of ${server.url('/short.img')} ended after 100000 of ${image.length} bytes`));
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('file:// sources', () => {
  it('copies an allowed file with its digest, and refuses files outside the allowed directories', async () => {
    const store = path.join(dir, 'store');
    await mkdir(store);
    await writeFile(path.join(store, 'disk.img'), image);
    const dest = path.join(dir, 'copy');
    const r = await downloadToFile(`file://${store}/disk.img`, dest, { files: { allowed: [store] }, expected: { algo: 'sha512', hex: sha512 } });
    expect(r.bytes).toBe(image.length);
    expect(r.finalUrl).toBe(`file://${store}/disk.img`);
    expect((await readFile(dest)).equals(image)).toBe(true);

    const outside = await failure(downloadToFile(`file://${dir}/copy`, path.join(dir, 'x'), { files: { allowed: [store] } }));
    expect(outside.reason).toBe('invalid_source');
    await symlink(dest, path.join(store, 'escape.img'));
    const escaped = await failure(downloadToFile(`file://${store}/escape.img`, path.join(dir, 'y'), { files: { allowed: [store] } }));
    expect(escaped.message).toContain('outside images.file_url_allowed_paths');
    const missing = await failure(downloadToFile(`file://${store}/none.img`, path.join(dir, 'z'), { files: { allowed: [store] } }));
    expect(missing.reason).toBe('not_found');
    const big = await failure(downloadToFile(`file://${store}/disk.img`, path.join(dir, 'w'), { files: { allowed: [store] }, maxBytes: 1000 }));
    expect(big.reason).toBe('too_large');
  });
});

describe('checksum files', () => {
  it('finds the image line in a SHA256SUMS file and verifies the download with it', async () => {
    const c = await resolveChecksum(server.url('/SHA256SUMS'), { imageUrl: server.url('/disk.img'), allowMd5: false });
    expect(c).toEqual({ algo: 'sha256', hex: sha256 });
    const r = await downloadToFile(server.url('/disk.img'), path.join(dir, 'out'), { expected: c });
    expect(r.bytes).toBe(image.length);
    const bsd = await resolveChecksum(server.url('/BSDSUMS'), { imageUrl: `${server.url('/disk.img')}?token=1`, allowMd5: false });
    expect(bsd).toEqual({ algo: 'sha512', hex: sha512 });
  });

  it('names the image when the file has no line for it, and the URL when it is missing', async () => {
    await expect(resolveChecksum(server.url('/NOSUMS'), { imageUrl: server.url('/disk.img'), allowMd5: false })).rejects.toThrow(
      `Checksum file ${server.url('/NOSUMS')} has no line for disk.img.`,
    );
    const err = await failure(resolveChecksum(server.url('/NOPE'), { imageUrl: server.url('/disk.img'), allowMd5: false }));
    expect(err.reason).toBe('not_found');
    expect(err.message).toContain(server.url('/NOPE'));
  });
});

describe('fetchBytes and headSource', () => {
  it('buffers small bodies within the limit only', async () => {
    const { body } = await fetchBytes(server.url('/SHA256SUMS'), { maxBytes: 1000 });
    expect(body.toString()).toContain(sha256);
    const err = await failure(fetchBytes(server.url('/chunked.img'), { maxBytes: 1000 }));
    expect(err.reason).toBe('too_large');
  });

  it('reads size and modification time with HEAD', async () => {
    const before = server.count('/disk.img', 'GET');
    const info = await headSource(server.url('/disk.img'));
    expect(info).toEqual({ size: image.length, lastModified: new Date(lastModified), finalUrl: server.url('/disk.img') });
    expect(server.count('/disk.img', 'GET')).toBe(before);
  });
});
