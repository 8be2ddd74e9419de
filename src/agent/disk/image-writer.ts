/**
 * Streams a raw image from HTTP straight onto a disk, hashing it on the way (IPA `standby.py`
 * `_stream_raw_image_onto_device`): no copy in RAM or in a temporary file. URLs are tried in order;
 * connection errors and 5xx answers are retried (`ipa-image-download-connection-retries`, every
 * `…-retry-interval`), 4xx answers move on to the next URL.
 *
 * Receiving, hashing and writing overlap: the body is read into one reused buffer
 * (`image-download.ts`), hashed on the event loop and copied into four 2 MiB page-aligned write
 * buffers, written one at a time on the thread pool while the next ones fill (`write-pipeline.ts`),
 * around the page cache (`O_DIRECT`) where the disk takes it. When all four are busy, reading stops (TCP
 * back-pressure), so an image write holds ~9 MiB whatever the image size (a simulated fleet runs many in
 * one process). On a disk written through the page cache, a background sync starts after every 64 MiB
 * (one at a time), so the disk writes back while the download goes on and the final sync has little left
 * to do. Measurements behind these choices: docs/bench.md, "The agent's image write".
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
import { MIB, type DiskTarget } from './disk-target.js';
import { downloadImage, type BodySink } from './image-download.js';
import type { ExpectedChecksum } from './image-checksum.js';
import { WritePipeline } from './write-pipeline.js';

const QCOW2_MAGIC = Buffer.from([0x51, 0x46, 0x49, 0xfb]);
/** Bytes per disk write. */
const WRITE_BLOCK = 2 * MIB;
/** Write buffers: while one fills, the full ones are written, in order. */
const WRITE_BUFFERS = 4;
/** A background sync starts after every this many bytes written through the page cache. */
const FLUSH_EVERY = 64 * MIB;

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

class StreamBroken extends Error {}

/** Streams the image onto the disk and verifies its checksum; throws an AgentRestError when it cannot. */
export async function streamImage(opts: StreamImageOptions): Promise<StreamImageResult> {
  const { info, disk, expected } = opts;
  let touched = false;
  let written = 0;

  async function attempt(url: string): Promise<StreamImageResult | { status: number; text: string }> {
    const hash = createHash(expected.algo);
    const pipeline = new WritePipeline({
      disk,
      skipZeroBlocks: disk.isFile,
      blockBytes: WRITE_BLOCK,
      buffers: WRITE_BUFFERS,
      flushEveryBytes: FLUSH_EVERY,
      beforeFirstWrite: async (head) => {
        if (head.length >= 4 && head.subarray(0, 4).equals(QCOW2_MAGIC)) {
          throw imageWriteError('imageIsQcow2', { image: info.id, url, format: info.disk_format ?? 'unset' });
        }
        if (disk.isFile) await disk.blank();
        touched = true;
      },
    });
    const sink: BodySink = {
      take(data) {
        if (pipeline.position + data.length > disk.size) {
          throw imageWriteError('imageLargerThanDisk', { image: info.id, url, disk: disk.path, size: disk.size });
        }
        const took = pipeline.take(data);
        hash.update(took === data.length ? data : data.subarray(0, took));
        return took;
      },
      ready: () => pipeline.ready(),
    };
    let answer: Awaited<ReturnType<typeof downloadImage>>;
    try {
      answer = await downloadImage(url, {
        headers: authHeaders(info),
        timeoutMs: opts.timeoutMs,
        insecure: opts.insecure,
        signal: opts.signal,
        sink,
        onHead: (declared, from) => {
          if (declared !== null && declared > disk.size) {
            throw imageWriteError('imageDeclaredLargerThanDisk', { image: info.id, bytes: declared, url: from, disk: disk.path, size: disk.size });
          }
        },
      });
      if (answer.status === 200) await pipeline.finish();
    } catch (err) {
      await pipeline.drain();
      written = Math.max(written, pipeline.written);
      if (err instanceof AgentRestError) throw err;
      if (pipeline.failure?.error === err) throw imageWriteError('imageWriteFailed', { image: info.id, disk: disk.path, reason: messageOf(err) });
      throw new StreamBroken(`reading ${url} failed after ${pipeline.position} bytes: ${messageOf(err)}`);
    }
    written = Math.max(written, pipeline.written);
    if (!('bytes' in answer)) return { status: answer.status, text: answer.text };
    const pos = pipeline.position;
    if (answer.declared !== null && pos !== answer.declared) throw new StreamBroken(`${answer.url} ended after ${pos} of ${answer.declared} bytes`);
    await disk.sync();
    const digest = hash.digest('hex');
    if (digest !== expected.value) throw imageChecksumError(info.id, disk.path, expected.value, digest);
    return { url, bytes: pos, digest, skippedBytes: pipeline.skippedBytes };
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
    throw imageDownloadError('imageDownloadFailed', { image: info.id, reason: failures.join('\n ') });
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
