import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImagesConfig } from '../../src/config/images.js';
import { cacheOptionsFromConfig, ImageCache, type ImageCacheOptions } from '../../src/images/cache.js';
import { isImageError } from '../../src/images/errors.js';
import { FixtureServer } from './fixture-server.js';
import { requireTool, run } from './tools.js';

const MiB = 1024 * 1024;
const DAY = 24 * 3600 * 1000;
const images = new Map<string, Buffer>();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: FixtureServer;
let dir: string;

beforeAll(async () => {
  server = new FixtureServer();
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    const body = randomBytes(MiB);
    images.set(name, body);
    server.route(`/${name}.img`, { body, delayMs: 50 });
  }
  await server.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A clock the test moves. */
function testClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms: number) => (offset += ms) };
}

async function open(extra: Partial<ImageCacheOptions> = {}): Promise<ImageCache> {
  return ImageCache.open({ dir: path.join(dir, 'cache'), maxBytes: 100 * MiB, ttlMs: 7 * DAY, allowMd5: false, ...extra });
}

const req = (name: string) => ({ url: server.url(`/${name}.img`), checksum: sha(images.get(name) as Buffer) });

describe('ImageCache', () => {
  it('shares one download among concurrent requests and links every node to the one master', async () => {
    const cache = await open();
    const before = server.count('/a.img', 'GET');
    const links = await Promise.all(['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => cache.linkForNode(n, req('a'))));
    expect(server.count('/a.img', 'GET') - before).toBe(1);
    expect(cache.stats.downloads).toBe(1);
    const master = await stat(links[0]?.image.path as string);
    expect(master.nlink).toBe(6);
    for (const l of links) {
      expect(l.path).toBe(path.join(dir, 'cache', 'instance', path.basename(path.dirname(l.path)), 'disk'));
      expect((await stat(l.path)).ino).toBe(master.ino);
    }
    expect((await readFile(links[2]?.path as string)).equals(images.get('a') as Buffer)).toBe(true);
    expect(links[0]?.image).toMatchObject({ format: 'raw', sourceFormat: 'raw', virtualSize: MiB, checksum: { algo: 'sha256', hex: sha(images.get('a') as Buffer) } });

    // A later request is a cache hit, without a request to the server.
    await cache.linkForNode('n6', req('a'));
    expect(server.count('/a.img', 'GET') - before).toBe(1);
    expect(cache.stats.hits).toBe(1);
  });

  it('checks a cached image without a checksum against the source’s Last-Modified', async () => {
    const body = randomBytes(4096);
    server.route('/lm.img', { body, headers: { 'Last-Modified': new Date(Date.now() - DAY).toUTCString() } });
    const cache = await open();
    await cache.get({ url: server.url('/lm.img') });
    await cache.get({ url: server.url('/lm.img') });
    expect(server.count('/lm.img', 'GET')).toBe(1);
    expect(server.count('/lm.img', 'HEAD')).toBe(1);
    server.route('/lm.img', { body, headers: { 'Last-Modified': new Date(Date.now() + DAY).toUTCString() } });
    await cache.get({ url: server.url('/lm.img') });
    expect(server.count('/lm.img', 'GET')).toBe(2);
  });

  it('gives every waiter a failure and keeps nothing of it', async () => {
    const cache = await open();
    const url = server.url('/absent.img');
    const results = await Promise.allSettled([1, 2, 3].map(() => cache.get({ url, checksum: 'a'.repeat(64) })));
    expect(results.every((r) => r.status === 'rejected' && isImageError(r.reason, 'not_found'))).toBe(true);
    expect(server.count('/absent.img')).toBe(1);
    await expect(cache.get({ url, checksum: 'a'.repeat(64) })).rejects.toMatchObject({ reason: 'not_found' });
    expect(server.count('/absent.img')).toBe(2);
    expect(await readdir(path.join(dir, 'cache', 'master'))).toEqual([]);
    expect(await readdir(path.join(dir, 'cache', 'tmp'))).toEqual([]);

    const mismatch = await cache.get({ url: server.url('/b.img'), checksum: 'b'.repeat(64) }).catch((e: Error) => e);
    expect(isImageError(mismatch, 'checksum_mismatch')).toBe(true);
    expect((mismatch as Error).message).toContain(`expected sha256 ${'b'.repeat(64)}, computed ${sha(images.get('b') as Buffer)}`);
    expect(await readdir(path.join(dir, 'cache', 'master'))).toEqual([]);
  });

  it('keeps downloading for the others when one waiter aborts', async () => {
    server.route('/slow.img', { body: images.get('c') as Buffer, delayMs: 300 });
    const cache = await open();
    const ctl = new AbortController();
    const r = { url: server.url('/slow.img'), checksum: sha(images.get('c') as Buffer) };
    const leaving = cache.get({ ...r, signal: ctl.signal });
    const staying = cache.linkForNode('stay', r);
    setTimeout(() => ctl.abort(), 50);
    await expect(leaving).rejects.toMatchObject({ reason: 'aborted' });
    const kept = await staying;
    expect((await readFile(kept.path)).equals(images.get('c') as Buffer)).toBe(true);
    expect(server.count('/slow.img', 'GET')).toBe(1);
  });

  it('evicts the oldest unused images above the size limit and never one a node holds', async () => {
    const cache = await open({ maxBytes: Math.floor(2.5 * MiB) });
    await cache.linkForNode('holder', req('a'));
    for (const name of ['b', 'c', 'd']) await cache.get(req(name));
    const { masters, totalBytes } = await cache.usage();
    const keys = masters.map((m) => m.key);
    const keyOf = async (name: string) => (await cache.get(req(name))).key;
    expect(totalBytes).toBeLessThanOrEqual(2.5 * MiB);
    expect(masters.find((m) => m.inUse)?.key).toBe(await keyOf('a'));
    // b and c went (oldest first); the newest, d, stays with the held a.
    expect(keys).toHaveLength(2);
    expect(cache.stats.evicted).toBe(2);
    expect(server.count('/d.img', 'GET')).toBeGreaterThanOrEqual(1);
    const dGets = server.count('/d.img', 'GET');
    await cache.get(req('d'));
    expect(server.count('/d.img', 'GET')).toBe(dGets);

    // Only held images left and still over the limit: nothing more can go.
    const tiny = await open({ maxBytes: 1 });
    const report = await tiny.cleanUp();
    expect(report.removed).toEqual(masters.filter((m) => !m.inUse).map((m) => m.key));
    expect((await tiny.usage()).masters.map((m) => m.inUse)).toEqual([true]);
  });

  it('evicts images unused for longer than the TTL, except those in use or just used', async () => {
    const clock = testClock();
    const cache = await open({ clock });
    const held = await cache.linkForNode('node-1', req('a'));
    const idle = await cache.get(req('b'));
    const used = await cache.get(req('c'));
    clock.advance(6 * DAY);
    await cache.get(req('c')); // a hit refreshes its last use
    clock.advance(2 * DAY);
    const report = await cache.cleanUp();
    expect(report.removed).toEqual([idle.key]);
    const left = (await cache.usage()).masters.map((m) => m.key).sort();
    expect(left).toEqual([held.image.key, used.key].sort());

    await cache.releaseNode('node-1');
    await expect(stat(held.path)).rejects.toMatchObject({ code: 'ENOENT' });
    clock.advance(8 * DAY);
    expect((await cache.cleanUp()).removed.sort()).toEqual([held.image.key, used.key].sort());
  });

  it('refuses, before writing a byte, an image larger than the whole cache or than the free space', async () => {
    const big = randomBytes(3 * MiB);
    server.route('/big.img', { body: big });
    // A server claiming a petabyte: no disk here has room for it.
    server.route('/petabyte.img', { body: randomBytes(1024), chunked: true, headers: { 'Content-Length': String(2 ** 50) } });
    const small = await open({ maxBytes: 2 * MiB });
    const over = await small.get({ url: server.url('/big.img'), checksum: sha(big) }).then(() => null, (e: unknown) => e);
    expect(isImageError(over, 'too_large')).toBe(true);
    expect((over as Error).message).toBe(`Image ${server.url('/big.img')} is larger than the whole image cache (2 MiB (2097152 bytes), images.master_cache_size_mib); raise the limit or use a smaller image.`);
    const roomy = await open({ maxBytes: 2 ** 60 });
    const full = await roomy.get({ url: server.url('/petabyte.img'), checksum: sha(big) }).then(() => null, (e: unknown) => e);
    expect(isImageError(full, 'no_space')).toBe(true);
    expect((full as Error).message).toMatch(new RegExp(`^Not enough disk space in ${path.join(dir, 'cache')} to download ${server.url('/petabyte.img')}: it needs 1024 TiB \\(1125899906842624 bytes\\), .* are free after evicting unused images; nothing was written\\.$`));
    expect(await readdir(path.join(dir, 'cache', 'tmp'))).toEqual([]);
    expect(await readdir(path.join(dir, 'cache', 'master'))).toEqual([]);
  });

  it('cleans what a crash left behind when it opens', async () => {
    const root = path.join(dir, 'cache');
    await mkdir(path.join(root, 'tmp'), { recursive: true });
    await mkdir(path.join(root, 'meta'), { recursive: true });
    await writeFile(path.join(root, 'tmp', 'abc.123.part'), 'partial');
    await writeFile(path.join(root, 'meta', 'orphan.json'), '{}');
    await open();
    expect(await readdir(path.join(root, 'tmp'))).toEqual([]);
    expect(await readdir(path.join(root, 'meta'))).toEqual([]);
  });

  it('refuses node names that are not one path segment', async () => {
    const cache = await open();
    await expect(cache.linkForNode('../escape', req('a'))).rejects.toThrow('cannot name a node');
    await expect(cache.releaseNode('a/b')).rejects.toThrow('cannot name a node');
  });

  it('converts qcow2 to raw on the way in', async () => {
    requireTool('qemu-img');
    const raw = randomBytes(2 * MiB + 4096);
    const rawFile = path.join(dir, 'src.raw');
    const qcow = path.join(dir, 'src.qcow2');
    await writeFile(rawFile, raw);
    run('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', rawFile, qcow]);
    const body = await readFile(qcow);
    server.route('/disk.qcow2', { body });
    const cache = await open();
    const img = await cache.get({ url: server.url('/disk.qcow2'), checksum: `sha256:${sha(body)}` });
    expect(img).toMatchObject({ sourceFormat: 'qcow2', format: 'raw', virtualSize: raw.length });
    expect(img.key.endsWith('.raw')).toBe(true);
    expect((await readFile(img.path)).equals(raw)).toBe(true);
    const asIs = await cache.get({ url: server.url('/disk.qcow2'), checksum: sha(body), forceRaw: false });
    expect(asIs).toMatchObject({ format: 'qcow2', virtualSize: raw.length });
    expect((await readFile(asIs.path)).equals(body)).toBe(true);
    expect(await readdir(path.join(dir, 'cache', 'tmp'))).toEqual([]);
  });
});

describe('cacheOptionsFromConfig', () => {
  it('uses Ironic’s defaults and puts the cache in the data directory unless configured', () => {
    const cfg = Value.Default(ImagesConfig, {}) as ImagesConfig;
    const o = cacheOptionsFromConfig(cfg, '/var/lib/ingot');
    expect(o).toMatchObject({ dir: '/var/lib/ingot/master_images', maxBytes: 20 * 1024 * MiB, ttlMs: 7 * DAY, allowMd5: false, forceRaw: true });
    expect(cacheOptionsFromConfig({ ...cfg, cache_dir: '/srv/cache' }, '/x').dir).toBe('/srv/cache');
  });

  it('never serves a file of the data directory as an image, even when an allowed directory holds it', async () => {
    const data = path.join(dir, 'ingot-data');
    await mkdir(data, { recursive: true });
    const db = path.join(data, 'ingot.sqlite');
    await writeFile(db, 'every BMC password');
    const cfg = { ...(Value.Default(ImagesConfig, {}) as ImagesConfig), file_url_allowed_paths: [dir] };
    const cache = await ImageCache.open(cacheOptionsFromConfig(cfg, data));
    const err = await cache.get({ url: `file://${db}`, checksum: sha(await readFile(db)) }).then(() => null, (e: unknown) => e);
    expect(isImageError(err, 'invalid_source')).toBe(true);
    expect((err as Error).message).toBe(`Image source file://${db} is refused: files under ${data} may never be used as images.`);
  });
});
