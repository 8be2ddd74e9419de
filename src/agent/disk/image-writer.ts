/**
 * Streams a raw image from HTTP straight onto a disk, hashing it on the way (IPA `standby.py`
 * `_stream_raw_image_onto_device`): no copy in RAM or in a temporary file. URLs are tried in order;
 * connection errors and 5xx answers are retried (`ipa-image-download-connection-retries`, every
 * `…-retry-interval`), 4xx answers move on to the next URL.
 *
 * - An image whose `Content-Length` exceeds the disk is refused before anything is written; one that
 *   turns out larger while streaming fails as soon as it passes the disk's end.
 * - On a disk file (a simulated machine) the file is blanked first and all-zero 64 KiB blocks are
 *   skipped, so the file stays sparse and the skipped blocks read back as zeros.
 * - When the write fails after it started (checksum mismatch, too large, download broken for good), the
 *   first and last MiB written are zeroed, so the disk does not look like a bootable, valid image.
 */
import { createHash } from 'node:crypto';
import type { ImageInfo } from '../../protocol/agent/commands.js';
import { sleep } from '../../shared/clock.js';
import { messageOf } from '../../shared/errors.js';
import { AgentRestError, imageChecksumError, imageDownloadError, imageWriteError } from '../api/errors.js';
import { httpStream } from '../http-client.js';
import { MIB, type DiskTarget } from './disk-target.js';
import type { ExpectedChecksum } from './image-checksum.js';

/** Granularity of zero-block skipping on disk files. */
export const SPARSE_BLOCK = 64 * 1024;
const ZERO_BLOCK = Buffer.alloc(SPARSE_BLOCK);
const QCOW2_MAGIC = Buffer.from([0x51, 0x46, 0x49, 0xfb]);

/** Options of {@link streamImage}. */
export interface StreamImageOptions {
  info: ImageInfo;
  disk: DiskTarget;
  /** The digest to match (already fetched when it was a checksum file URL). */
  expected: ExpectedChecksum;
  /** Extra attempts per URL after a connection error or 5xx (IPA default 9). */
  retries: number;
  retryIntervalMs: number;
  /** No data for this long fails an attempt (IPA `image_download_connection_timeout`, 60 s). */
  timeoutMs: number;
  insecure?: boolean;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

/** What was written. */
export interface StreamImageResult {
  url: string;
  bytes: number;
  digest: string;
  /** Bytes not written because they were zero (disk files only). */
  skippedBytes: number;
}

function authHeaders(info: ImageInfo): Record<string, string> {
  if (info.image_server_auth_strategy !== 'http_basic' || !info.image_server_user) return {};
  return { Authorization: `Basic ${Buffer.from(`${info.image_server_user}:${info.image_server_password ?? ''}`).toString('base64')}` };
}

/** Writes `data` at `pos`, leaving out all-zero blocks when the disk is a file. Returns the bytes skipped. */
async function writeBlock(disk: DiskTarget, data: Buffer, pos: number): Promise<number> {
  if (!disk.isFile) {
    await disk.write(pos, data);
    return 0;
  }
  let skipped = 0;
  let runStart = -1;
  for (let at = 0; at < data.length; at += SPARSE_BLOCK) {
    const piece = data.subarray(at, at + SPARSE_BLOCK);
    const zero = piece.equals(ZERO_BLOCK.subarray(0, piece.length));
    if (zero) {
      skipped += piece.length;
      if (runStart >= 0) await disk.write(pos + runStart, data.subarray(runStart, at));
      runStart = -1;
    } else if (runStart < 0) runStart = at;
  }
  if (runStart >= 0) await disk.write(pos + runStart, data.subarray(runStart));
  return skipped;
}

class StreamBroken extends Error {}

/** Streams the image onto the disk and verifies its checksum; throws an AgentRestError when it cannot. */
export async function streamImage(opts: StreamImageOptions): Promise<StreamImageResult> {
  const { info, disk, expected } = opts;
  let touched = false;
  let written = 0;

  async function attempt(url: string): Promise<StreamImageResult | { status: number; text: string }> {
    const res = await httpStream(url, { headers: authHeaders(info), timeoutMs: opts.timeoutMs, insecure: opts.insecure, signal: opts.signal });
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res as AsyncIterable<Buffer>) if (chunks.length < 4) chunks.push(c);
      return { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8').slice(0, 300) };
    }
    const length = Number(res.headers['content-length'] ?? Number.NaN);
    const declared = Number.isFinite(length) ? length : null;
    if (declared !== null && declared > disk.size) {
      res.destroy();
      throw imageWriteError(`Image ${info.id} is ${declared} bytes (Content-Length of ${url}), larger than the disk ${disk.path} of ${disk.size} bytes; nothing was written.`);
    }
    const hash = createHash(expected.algo);
    const buf = Buffer.alloc(MIB);
    let fill = 0;
    let pos = 0;
    let skipped = 0;
    const flush = async () => {
      if (fill === 0) return;
      if (pos === 0) {
        if (fill >= 4 && buf.subarray(0, 4).equals(QCOW2_MAGIC)) {
          throw imageWriteError(`Image ${info.id} from ${url} is a qcow2 image, not raw (disk_format ${info.disk_format ?? 'unset'}); this agent writes raw images only: have the conductor convert it to raw.`);
        }
        if (disk.isFile) await disk.blank();
        touched = true;
      }
      skipped += await writeBlock(disk, buf.subarray(0, fill), pos);
      pos += fill;
      written = Math.max(written, pos);
      fill = 0;
    };
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        hash.update(chunk);
        if (pos + fill + chunk.length > disk.size) {
          throw imageWriteError(`Image ${info.id} from ${url} is larger than the disk ${disk.path} of ${disk.size} bytes: the download passed the end of the disk.`);
        }
        for (let at = 0; at < chunk.length; ) {
          const n = Math.min(chunk.length - at, MIB - fill);
          chunk.copy(buf, fill, at, at + n);
          fill += n;
          at += n;
          if (fill === MIB) await flush();
        }
      }
      await flush();
    } catch (err) {
      res.destroy();
      if (err instanceof AgentRestError) throw err;
      throw new StreamBroken(`reading ${url} failed after ${pos + fill} bytes: ${messageOf(err)}`);
    }
    if (declared !== null && pos !== declared) throw new StreamBroken(`${url} ended after ${pos} of ${declared} bytes`);
    await disk.sync();
    const digest = hash.digest('hex');
    if (digest !== expected.value) throw imageChecksumError(info.id, disk.path, expected.value, digest);
    return { url, bytes: pos, digest, skippedBytes: skipped };
  }

  const failures: string[] = [];
  try {
    for (const url of info.urls) {
      for (let n = 0; n <= opts.retries; n++) {
        let why: string;
        let retry = true;
        try {
          const r = await attempt(url);
          if ('digest' in r) return r;
          why = `Received status code ${r.status} from ${url}, expected 200. Response body: ${r.text}`;
          retry = r.status >= 500;
        } catch (err) {
          if (err instanceof AgentRestError || opts.signal?.aborted) throw err;
          why = messageOf(err);
        }
        opts.log?.(`image ${info.id}: ${why}`);
        if (!retry || n === opts.retries) {
          failures.push(`URL: ${url}; ${why}`);
          break;
        }
        await sleep(opts.retryIntervalMs, opts.signal);
      }
    }
    throw imageDownloadError(info.id, failures.join('\n '));
  } catch (err) {
    if (touched) {
      // The disk must not look like a valid image: zero its first MiB and the last MiB written.
      await disk.zero(0, Math.min(MIB, disk.size)).catch(() => undefined);
      if (written > MIB) await disk.zero(Math.max(MIB, written - MIB), Math.min(MIB, written - MIB)).catch(() => undefined);
      await disk.sync().catch(() => undefined);
    }
    throw err;
  }
}
