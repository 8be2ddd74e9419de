/**
 * The master image cache (Ironic `drivers/modules/image_cache.py`): each image is downloaded once into
 * `<dir>/master/`, keyed by its URL, checksum and whether it was converted to raw; each node gets a hard
 * link `<instanceDir>/<node>/disk` to it. A master with more than one link is in use and is never
 * evicted; unused masters go when they have not been used for `ttlMs`, and the oldest go first while
 * the cache is larger than `maxBytes`.
 *
 * Crash safety: downloads and conversions write under `<dir>/tmp/` and are renamed into `master/` only
 * once verified, so `master/` never holds a partial image; `tmp/` is emptied when the cache opens.
 * Concurrent requests for the same image in this process share one download.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, stat, statfs, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImagesConfig } from '../config/images.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { KeyedLimiter } from '../shared/limiter.js';
import type { Logger } from '../shared/logger.js';
import { resolveChecksum, type Checksum } from './checksum.js';
import { convertToRaw, detectFormat, inspectImage, type ImageFormat } from './convert.js';
import { downloadToFile, headSource } from './download.js';
import { formatBytes, imageError, isImageError } from './errors.js';
import { SharedFlights } from './flights.js';
import type { FilePathPolicy } from './source.js';

/** Options of {@link ImageCache.open}. */
export interface ImageCacheOptions {
  /** Cache root; holds `master/`, `meta/`, `tmp/` (and `instance/` unless `instanceDir` is given). */
  dir: string;
  /** Where per-node links go (must be on the same file system as `dir`); default `<dir>/instance`. */
  instanceDir?: string;
  /** Disk space the masters may use, counting those in use. */
  maxBytes: number;
  /** An unused master older than this is evicted. */
  ttlMs: number;
  /** Accept MD5 checksums. */
  allowMd5: boolean;
  /** Convert qcow2 to raw on the way in (default true); a request may override it. */
  forceRaw?: boolean;
  /** Per-wait download timeout in ms. */
  timeoutMs?: number;
  /** Largest image downloaded, in bytes (0: no limit). */
  maxImageBytes?: number;
  /** Where `file://` images may come from (allowed directories; refused ones such as the data directory). */
  files?: FilePathPolicy;
  /** Downloads at once (default 20). */
  concurrency?: number;
  clock?: Clock;
  qemuImg?: string;
  logger?: Logger;
}

/**
 * The cache options from the `images` configuration group; `dataDir` is where an empty `cache_dir` points,
 * and is never a place `file://` images may come from.
 */
export function cacheOptionsFromConfig(cfg: ImagesConfig, dataDir: string): ImageCacheOptions {
  return {
    dir: cfg.cache_dir || path.join(dataDir, 'master_images'),
    maxBytes: cfg.master_cache_size_mib * 1024 * 1024,
    ttlMs: cfg.master_cache_ttl_s * 1000,
    allowMd5: cfg.allow_md5_checksum,
    forceRaw: cfg.force_raw_images,
    timeoutMs: cfg.download_timeout_s * 1000,
    maxImageBytes: cfg.max_image_size_mib * 1024 * 1024,
    files: { allowed: cfg.file_url_allowed_paths, blocked: [dataDir] },
    concurrency: cfg.download_concurrency,
  };
}

/** An image request: where the image is and how to check it. */
export interface ImageRequest {
  url: string;
  /** Inline checksum, `algo:hex`, or a checksum file URL (`instance_info.image_checksum` / `image_os_hash_value`). */
  checksum?: string;
  /** The algorithm beside the value (`image_os_hash_algo`). */
  checksumAlgo?: string;
  /** Override the cache's `forceRaw`. */
  forceRaw?: boolean;
  signal?: AbortSignal;
}

/** A master image in the cache. */
export interface CachedImage {
  key: string;
  /** The master file. It may be evicted once unused: hold it with {@link ImageCache.linkForNode}. */
  path: string;
  url: string;
  /** The verified checksum of the bytes downloaded (before any conversion). */
  checksum?: Checksum;
  /** Format of the downloaded image, and of the master (raw after conversion). */
  sourceFormat: ImageFormat;
  format: ImageFormat;
  /** Bytes the image takes once written to a disk. */
  virtualSize: number;
}

/** What a clean-up removed. */
export interface EvictionReport {
  removed: string[];
  freedBytes: number;
  /** Space the masters use after the clean-up. */
  totalBytes: number;
}

interface MasterFile {
  key: string;
  file: string;
  bytes: number;
  lastUsed: number;
  inUse: boolean;
}

const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export class ImageCache {
  /** Counters for tests and metrics. */
  readonly stats = { downloads: 0, hits: 0, evicted: 0 };
  private readonly flights = new SharedFlights<CachedImage>();
  private readonly limiter: KeyedLimiter;
  private readonly pinned = new Map<string, number>();
  private lock: Promise<unknown> = Promise.resolve();
  private readonly clock: Clock;
  readonly masterDir: string;
  readonly instanceDir: string;
  private readonly metaDir: string;
  private readonly tmpDir: string;

  private constructor(private readonly opts: ImageCacheOptions) {
    this.clock = opts.clock ?? systemClock;
    this.masterDir = path.join(opts.dir, 'master');
    this.metaDir = path.join(opts.dir, 'meta');
    this.tmpDir = path.join(opts.dir, 'tmp');
    this.instanceDir = opts.instanceDir ?? path.join(opts.dir, 'instance');
    const n = opts.concurrency ?? 20;
    this.limiter = new KeyedLimiter(n, n);
  }

  /** Creates the directories and removes what a crash left in `tmp/` and orphaned metadata. */
  static async open(opts: ImageCacheOptions): Promise<ImageCache> {
    const cache = new ImageCache(opts);
    await rm(cache.tmpDir, { recursive: true, force: true });
    for (const d of [cache.masterDir, cache.metaDir, cache.tmpDir, cache.instanceDir]) await mkdir(d, { recursive: true });
    const masters = new Set(await readdir(cache.masterDir));
    for (const m of await readdir(cache.metaDir)) {
      if (!masters.has(m.replace(/\.json$/, ''))) await rm(path.join(cache.metaDir, m), { force: true });
    }
    return cache;
  }

  /** The master for `req`, downloading (once, shared by concurrent callers) when it is missing or stale. */
  get(req: ImageRequest): Promise<CachedImage> {
    return this.acquire(req, async (img) => img);
  }

  /**
   * Makes `<instanceDir>/<node>/disk` a hard link to the master for `req` (downloading it if needed) and
   * returns the link's path. The link keeps the master from eviction until {@link releaseNode}.
   */
  async linkForNode(node: string, req: ImageRequest): Promise<{ path: string; image: CachedImage }> {
    if (!NODE_ID.test(node)) throw imageError('invalid_source', 'nodeImageDirInvalid', { node });
    return this.acquire(req, (image) =>
      this.locked(async () => {
        const dir = path.join(this.instanceDir, node);
        const dest = path.join(dir, 'disk');
        await mkdir(dir, { recursive: true });
        const [m, d] = await Promise.all([stat(image.path), stat(dest).catch(() => undefined)]);
        if (!d || d.ino !== m.ino || d.dev !== m.dev) {
          await rm(dest, { force: true });
          await link(image.path, dest);
        }
        return { path: dest, image };
      }),
    );
  }

  /** Removes a node's links (its image directory); the masters become evictable once unused. */
  async releaseNode(node: string): Promise<void> {
    if (!NODE_ID.test(node)) throw imageError('invalid_source', 'nodeImageDirInvalid', { node });
    await this.locked(() => rm(path.join(this.instanceDir, node), { recursive: true, force: true }));
  }

  /**
   * Evicts unused masters: first those unused for longer than the TTL, then the oldest while the cache
   * is larger than `maxBytes` or until `amount` bytes are freed. Masters with other links, being
   * downloaded or pinned by a running request are kept.
   */
  cleanUp(amount?: number): Promise<EvictionReport> {
    return this.locked(() => this.cleanUpLocked(amount));
  }

  /** The masters, newest use first, with their disk usage and whether a node holds them. */
  async usage(): Promise<{ totalBytes: number; masters: MasterFile[] }> {
    const masters = await this.listMasters();
    return { totalBytes: masters.reduce((s, m) => s + m.bytes, 0), masters: masters.sort((a, b) => b.lastUsed - a.lastUsed) };
  }

  private async acquire<T>(req: ImageRequest, use: (img: CachedImage) => Promise<T>): Promise<T> {
    const checksum = req.checksum
      ? await resolveChecksum(req.checksum, { imageUrl: req.url, allowMd5: this.opts.allowMd5, algo: req.checksumAlgo, signal: req.signal, timeoutMs: this.opts.timeoutMs })
      : undefined;
    const raw = req.forceRaw ?? this.opts.forceRaw ?? true;
    const key = masterKey(req.url, checksum, raw);
    this.pin(key, 1);
    try {
      const img = await this.flights.run(key, (signal) => this.obtain(key, req.url, checksum, raw, signal), req.signal, req.url);
      return await use(img);
    } finally {
      this.pin(key, -1);
    }
  }

  private async obtain(key: string, url: string, checksum: Checksum | undefined, raw: boolean, signal: AbortSignal): Promise<CachedImage> {
    const file = path.join(this.masterDir, key);
    const cached = await this.lookup(key, url, checksum, signal);
    if (cached) {
      this.stats.hits++;
      const st = await stat(file);
      await utimes(file, new Date(this.clock.now()), st.mtime).catch(() => undefined);
      return cached;
    }
    const img = await this.limiter.run('download', () => this.download(key, url, checksum, raw, signal));
    await this.cleanUp();
    return img;
  }

  /** A usable master for `key`, or undefined. Without a checksum, a source newer than the master makes it stale. */
  private async lookup(key: string, url: string, checksum: Checksum | undefined, signal: AbortSignal): Promise<CachedImage | undefined> {
    const file = path.join(this.masterDir, key);
    const st = await stat(file).catch(() => undefined);
    if (!st) return undefined;
    if (!checksum) {
      const info = await headSource(url, { signal, timeoutMs: this.opts.timeoutMs, files: this.opts.files });
      // NOTE: like Ironic, a source that cannot tell its modification time is downloaded again.
      if (!info.lastModified || info.lastModified.getTime() > st.mtimeMs) {
        this.opts.logger?.info({ url, cached: file }, 'cached image is older than its source; downloading again');
        return undefined;
      }
    }
    const meta = await readFile(path.join(this.metaDir, `${key}.json`), 'utf8').then((t) => JSON.parse(t) as CachedImage).catch(() => undefined);
    if (meta && meta.url === url) return { ...meta, key, path: file };
    const format = await detectFormat(file);
    return { key, path: file, url, checksum, sourceFormat: format, format, virtualSize: st.size };
  }

  private async download(key: string, url: string, checksum: Checksum | undefined, raw: boolean, signal: AbortSignal): Promise<CachedImage> {
    const stem = path.join(this.tmpDir, `${key}.${randomBytes(6).toString('hex')}`);
    const part = `${stem}.part`;
    this.stats.downloads++;
    this.opts.logger?.info({ url }, 'downloading image into the master cache');
    // NOTE: one image larger than the whole cache can never be kept: refused before a byte is written.
    const cacheLimit = this.opts.maxBytes > 0 ? this.opts.maxBytes : Infinity;
    const imageLimit = this.opts.maxImageBytes && this.opts.maxImageBytes > 0 ? this.opts.maxImageBytes : Infinity;
    const limit = Math.min(cacheLimit, imageLimit);
    try {
      let got;
      try {
        got = await downloadToFile(url, part, {
          signal,
          expected: checksum,
          hash: ['sha256'],
          timeoutMs: this.opts.timeoutMs,
          maxBytes: Number.isFinite(limit) ? limit : 0,
          files: this.opts.files,
          beforeWrite: (bytes) => this.ensureSpace(bytes, bytes, url, 'download'),
        });
      } catch (err) {
        if (isImageError(err, 'too_large') && cacheLimit < imageLimit) {
          throw imageError('too_large', 'imageOverCacheLimit', { url, limit: formatBytes(cacheLimit) }, { cause: err });
        }
        throw err;
      }
      const found = await inspectImage(part, url, { qemuImg: this.opts.qemuImg, signal });
      let ready = part;
      let format = found.format;
      if (raw && found.format === 'qcow2') {
        await this.ensureSpace(found.virtualSize, found.fileSize * 2, url, 'convert');
        ready = `${stem}.raw`;
        await convertToRaw(part, ready, { qemuImg: this.opts.qemuImg, signal, expectedSize: found.virtualSize });
        await rm(part, { force: true });
        format = 'raw';
      }
      const img: CachedImage = {
        key,
        path: path.join(this.masterDir, key),
        url,
        checksum: checksum ?? { algo: 'sha256', hex: got.digests.sha256 as string },
        sourceFormat: found.format,
        format,
        virtualSize: found.virtualSize,
      };
      const metaTmp = `${stem}.json`;
      await writeFile(metaTmp, JSON.stringify(img));
      await this.locked(async () => {
        await rename(ready, img.path);
        await rename(metaTmp, path.join(this.metaDir, `${key}.json`));
      });
      return img;
    } finally {
      for (const f of [part, `${stem}.raw`, `${stem}.json`]) await rm(f, { force: true }).catch(() => undefined);
    }
  }

  /**
   * Frees space for `bytes` (falling back to `estimate`) by evicting unused masters; throws `no_space`
   * when it cannot, saying whether the image was to be downloaded or converted.
   */
  private async ensureSpace(bytes: number, estimate: number, url: string, step: 'download' | 'convert'): Promise<void> {
    let free = await freeBytes(this.opts.dir);
    for (const need of new Set([bytes, Math.min(bytes, estimate)])) {
      if (need < free) return;
      await this.cleanUp(need - free);
      free = await freeBytes(this.opts.dir);
      if (need < free) return;
    }
    const values = { dir: this.opts.dir, url, needed: formatBytes(Math.min(bytes, estimate)), free: formatBytes(free) };
    throw step === 'download' ? imageError('no_space', 'imageCacheNoSpaceDownload', values) : imageError('no_space', 'imageCacheNoSpace', values);
  }

  private async cleanUpLocked(amount?: number): Promise<EvictionReport> {
    const all = await this.listMasters();
    let total = all.reduce((s, m) => s + m.bytes, 0);
    const busy = new Set([...this.flights.keys(), ...this.pinned.keys()]);
    const candidates = all.filter((m) => !m.inUse && !busy.has(m.key)).sort((a, b) => a.lastUsed - b.lastUsed);
    const threshold = this.clock.now() - this.opts.ttlMs;
    let need = amount;
    const removed: string[] = [];
    let freed = 0;
    for (const m of candidates) {
      const expired = m.lastUsed < threshold;
      const oversize = total > this.opts.maxBytes;
      const wanted = need !== undefined && need > 0;
      if (!expired && !oversize && !wanted) continue;
      try {
        await rm(m.file);
        await rm(path.join(this.metaDir, `${m.key}.json`), { force: true });
      } catch (err) {
        this.opts.logger?.warn({ file: m.file, err }, 'cannot evict cached image');
        continue;
      }
      removed.push(m.key);
      freed += m.bytes;
      total -= m.bytes;
      if (need !== undefined) need -= m.bytes;
    }
    this.stats.evicted += removed.length;
    if (removed.length) this.opts.logger?.info({ removed: removed.length, freedBytes: freed }, 'evicted cached images');
    return { removed, freedBytes: freed, totalBytes: total };
  }

  private async listMasters(): Promise<MasterFile[]> {
    const out: MasterFile[] = [];
    for (const name of await readdir(this.masterDir)) {
      const file = path.join(this.masterDir, name);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      // NOTE: atime may be disabled (noatime) and ctime changes when a link is made, so the latest of
      // the three is the last use (image_cache._find_candidates_for_deletion).
      out.push({ key: name, file, bytes: st.blocks * 512, lastUsed: Math.max(st.mtimeMs, st.atimeMs, st.ctimeMs), inUse: st.nlink > 1 });
    }
    return out;
  }

  private pin(key: string, delta: number): void {
    const n = (this.pinned.get(key) ?? 0) + delta;
    if (n <= 0) this.pinned.delete(key);
    else this.pinned.set(key, n);
  }

  /** Runs `fn` alone among the cache's link, rename and eviction steps. */
  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }
}

/** The master's file name: a digest of the URL, the checksum and whether it is converted to raw. */
export function masterKey(url: string, checksum: Checksum | undefined, raw: boolean): string {
  const h = createHash('sha256').update(`${url}\n${checksum ? `${checksum.algo}:${checksum.hex}` : ''}`).digest('hex').slice(0, 40);
  return raw ? `${h}.raw` : h;
}

async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}
