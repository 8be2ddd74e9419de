/**
 * Streams an image from its source into a file, hashing the bytes as they are written (one pass, no
 * re-read), with a size limit, a timeout for each wait and the caller's AbortSignal. Errors name the
 * URL and say what happened: HTTP status, connection refused, timeout, too large, checksum mismatch.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { excerpt } from '../shared/excerpt.js';
import { MultiHash, verifyDigest, type Checksum, type ChecksumAlgo } from './digest.js';
import { formatBytes, imageError, isImageError, type ImageError } from './errors.js';
import { parseImageSource, resolveFileSource, type FilePathPolicy, type ImageSource } from './source.js';

/** Default wait for a server's answer and between two chunks of a download. */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 60_000;

/** Options of {@link downloadToFile} and {@link fetchBytes}. */
export interface DownloadOptions {
  /** Aborts the download; the partial file is removed. */
  signal?: AbortSignal;
  /** Longest wait for the response headers and between two chunks, in ms (default 60 000). */
  timeoutMs?: number;
  /** Most bytes accepted; more fails with `too_large` (0 or absent: no limit). */
  maxBytes?: number;
  /** Digests to compute while writing (the expected checksum's algorithm is always added). */
  hash?: readonly ChecksumAlgo[];
  /** Verify the bytes against this checksum; a mismatch removes the file and names both values. */
  expected?: Checksum;
  /** Where `file://` sources may point; without allowed directories `file://` is refused. */
  files?: FilePathPolicy;
  /** Extra request headers for HTTP sources. */
  headers?: Record<string, string>;
  /**
   * Called with the source's size when it is known (Content-Length, a file's size) before any byte is
   * written: a rejection (no room for it, say) fails the download with that error.
   */
  beforeWrite?: (bytes: number) => Promise<void>;
}

/** What a download produced. */
export interface DownloadResult {
  /** Bytes written. */
  bytes: number;
  /** Hex digests of the bytes, one per requested algorithm. */
  digests: Partial<Record<ChecksumAlgo, string>>;
  /** The URL the bytes came from after redirects (the source URL for files). */
  finalUrl: string;
  /** The source's modification time (HTTP Last-Modified or the file's mtime), when known. */
  lastModified?: Date;
}

/** What {@link headSource} learns about a source without downloading it. */
export interface SourceInfo {
  size?: number;
  lastModified?: Date;
  finalUrl: string;
}

/** What a timer waits for: the server's answer (its headers), or the next bytes of the body. */
type Wait = 'answer' | 'body';

type StopReason = { why: 'timeout'; waiting: Wait } | { why: 'aborted' };

/** One HTTP exchange: the abort controller that covers it and what stopped it, if anything. */
class Exchange {
  readonly ctl = new AbortController();
  stopped: StopReason | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => this.stop({ why: 'aborted' });

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (signal?.aborted) this.stop({ why: 'aborted' });
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** (Re)starts the timer for the next wait. */
  arm(waiting: Wait): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop({ why: 'timeout', waiting }), this.timeoutMs);
  }

  stop(reason: StopReason): void {
    if (this.stopped) return;
    this.stopped = reason;
    clearTimeout(this.timer);
    this.ctl.abort(reason.why === 'aborted' ? this.signal?.reason : new Error(`timed out waiting for the ${reason.waiting}`));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed by the server',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the body stalled',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate cannot be verified',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server certificate does not match the host name',
};

function errnoOf(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_CODES) return code;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = errnoOf(errors[0]);
      if (inner) return inner;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Turns whatever a download threw into an {@link ImageError} naming the URL. */
function classify(err: unknown, href: string, ex: Exchange | undefined): ImageError {
  if (isImageError(err)) return err;
  if (ex?.stopped?.why === 'aborted') return imageError('aborted', 'downloadAborted', { url: href }, { cause: err });
  if (ex?.stopped?.why === 'timeout') {
    if (ex.stopped.waiting === 'answer') return imageError('timeout', 'downloadNoAnswer', { url: href, host: new URL(href).host }, { cause: err });
    return imageError('timeout', 'downloadStalled', { url: href }, { cause: err });
  }
  const code = errnoOf(err);
  if (code) {
    return imageError(code === 'ETIMEDOUT' || code.endsWith('TIMEOUT') ? 'timeout' : 'connection', 'downloadNetworkError', { url: href, reason: NETWORK_CODES[code] as string, code }, { cause: err });
  }
  return imageError('connection', 'downloadFailed', { url: href, reason: err instanceof Error ? err.message : String(err) }, { cause: err });
}

function lastModifiedOf(headers: Headers): Date | undefined {
  const v = headers.get('last-modified');
  if (!v) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** Redirects followed for one download (Ironic follows what `requests` follows; Ingot fewer). */
export const MAX_DOWNLOAD_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The URL a redirect answer leads to: http(s) only (never `file:` or another scheme), without
 * credentials, at most {@link MAX_DOWNLOAD_REDIRECTS} times.
 */
function redirectTarget(source: string, from: string, status: number, location: string | null, hop: number): URL {
  let next: URL;
  try {
    next = new URL(location ?? '', from);
  } catch {
    throw imageError('invalid_source', 'downloadRedirectInvalid', { url: source, status, location: excerpt(location ?? '', 80) });
  }
  if (location === null || location === '') throw imageError('invalid_source', 'downloadRedirectInvalid', { url: source, status, location: '(none)' });
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw imageError('invalid_source', 'downloadRedirectScheme', { url: source, status, scheme: next.protocol.replace(/:$/, '') });
  }
  if (next.username || next.password) throw imageError('invalid_source', 'downloadRedirectCredentials', { url: source, status });
  if (hop >= MAX_DOWNLOAD_REDIRECTS) throw imageError('invalid_source', 'downloadTooManyRedirects', { url: source, max: MAX_DOWNLOAD_REDIRECTS });
  return next;
}

/**
 * Sends a request, following redirects by {@link redirectTarget}'s rules (the caller's headers go only to
 * the source's origin), and checks the status; the caller reads (or cancels) the body before
 * `ex.dispose()`. `url` is where the answer came from.
 */
async function request(src: Extract<ImageSource, { kind: 'http' }>, method: 'GET' | 'HEAD', ex: Exchange, headers?: Record<string, string>): Promise<{ res: Response; url: string }> {
  ex.arm('answer');
  let url = src.href;
  let res: Response;
  for (let hop = 0; ; hop++) {
    const sameOrigin = new URL(url).origin === src.url.origin;
    res = await fetch(url, { method, redirect: 'manual', signal: ex.ctl.signal, ...(sameOrigin ? { headers } : {}) });
    if (!REDIRECTS.has(res.status)) break;
    await res.body?.cancel().catch(() => undefined);
    url = redirectTarget(src.href, url, res.status, res.headers.get('location'), hop).href;
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    const answer = { url: src.href, status: `${res.status}${res.statusText ? ` ${excerpt(res.statusText, 80)}` : ''}` };
    const redirected = url !== src.href ? url : null;
    if (res.status === 404 || res.status === 410) {
      throw redirected ? imageError('not_found', 'downloadNotFoundRedirected', { ...answer, final: redirected }) : imageError('not_found', 'downloadNotFound', answer);
    }
    throw redirected ? imageError('http_status', 'downloadHttpStatusRedirected', { ...answer, final: redirected }) : imageError('http_status', 'downloadHttpStatus', answer);
  }
  return { res, url };
}

function declaredLength(res: Response): number | undefined {
  const enc = res.headers.get('content-encoding');
  if (enc && enc !== 'identity') return undefined;
  const v = res.headers.get('content-length');
  if (v === null || !/^\d+$/.test(v.trim())) return undefined;
  return Number(v);
}

/** Counts, limits and hashes the bytes flowing to the destination; re-arms the idle timer per chunk. */
function meter(href: string, hasher: MultiHash, maxBytes: number, onChunk: () => void): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      t.bytes += chunk.length;
      if (maxBytes > 0 && t.bytes > maxBytes) {
        cb(imageError('too_large', 'downloadOverLimit', { url: href, limit: formatBytes(maxBytes) }));
        return;
      }
      hasher.update(chunk);
      onChunk();
      cb(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

function algosOf(opts: DownloadOptions): ChecksumAlgo[] {
  const algos = [...(opts.hash ?? [])];
  if (opts.expected) algos.push(opts.expected.algo);
  return algos;
}

/**
 * Downloads `href` (`http://`, `https://` or an allowed `file://`) into `dest`, streaming, and returns
 * the size and digests. On any failure `dest` is removed and an {@link ImageError} names the URL.
 */
export async function downloadToFile(href: string, dest: string, opts: DownloadOptions = {}): Promise<DownloadResult> {
  const src = parseImageSource(href, opts.files);
  const maxBytes = opts.maxBytes ?? 0;
  const hasher = new MultiHash(algosOf(opts));
  const ex = src.kind === 'http' ? new Exchange(opts.signal, opts.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS) : undefined;
  try {
    let result: DownloadResult;
    if (src.kind === 'http' && ex) {
      const { res, url: finalUrl } = await request(src, 'GET', ex, opts.headers);
      const declared = declaredLength(res);
      if (declared !== undefined && maxBytes > 0 && declared > maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw imageError('too_large', 'imageOverLimit', { url: src.href, size: formatBytes(declared), limit: formatBytes(maxBytes) });
      }
      if (declared !== undefined && opts.beforeWrite) {
        try {
          await opts.beforeWrite(declared);
        } catch (err) {
          await res.body?.cancel().catch(() => undefined);
          throw err;
        }
      }
      ex.arm('body');
      const m = meter(src.href, hasher, maxBytes, () => ex.arm('body'));
      const body = res.body ? Readable.fromWeb(res.body as WebReadableStream<Uint8Array>) : Readable.from([]);
      try {
        await pipeline(body, m, createWriteStream(dest), { signal: ex.ctl.signal });
      } catch (err) {
        if (!ex.stopped && !isImageError(err) && declared !== undefined && m.bytes < declared) {
          throw imageError('truncated', 'downloadTruncatedBy', { url: src.href, bytes: m.bytes, declared, reason: (err as Error).message }, { cause: err });
        }
        throw err;
      }
      if (declared !== undefined && m.bytes !== declared) {
        throw imageError('truncated', 'downloadTruncated', { url: src.href, bytes: m.bytes, declared });
      }
      result = { bytes: m.bytes, digests: hasher.digest(), finalUrl, lastModified: lastModifiedOf(res.headers) };
    } else {
      const file = await resolveFileSource(src as Extract<ImageSource, { kind: 'file' }>, opts.files);
      const st = await stat(file);
      if (maxBytes > 0 && st.size > maxBytes) {
        throw imageError('too_large', 'imageOverLimit', { url: src.href, size: formatBytes(st.size), limit: formatBytes(maxBytes) });
      }
      await opts.beforeWrite?.(st.size);
      const m = meter(src.href, hasher, maxBytes, () => undefined);
      await pipeline(createReadStream(file), m, createWriteStream(dest), opts.signal ? { signal: opts.signal } : {});
      result = { bytes: m.bytes, digests: hasher.digest(), finalUrl: src.href, lastModified: st.mtime };
    }
    if (opts.expected) verifyDigest(opts.expected, result.digests[opts.expected.algo], src.href);
    return result;
  } catch (err) {
    await rm(dest, { force: true }).catch(() => undefined);
    if (!ex && opts.signal?.aborted) throw imageError('aborted', 'imageCopyAborted', { url: src.href }, { cause: err });
    throw classify(err, src.href, ex);
  } finally {
    ex?.dispose();
  }
}

/**
 * Fetches a small resource (a checksum file, a config drive) into memory. `maxBytes` is required: a
 * larger body fails with `too_large` before it is buffered.
 */
export async function fetchBytes(href: string, opts: DownloadOptions & { maxBytes: number }): Promise<{ body: Buffer; finalUrl: string }> {
  const src = parseImageSource(href, opts.files);
  const ex = src.kind === 'http' ? new Exchange(opts.signal, opts.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS) : undefined;
  const chunks: Buffer[] = [];
  try {
    let input: Readable;
    let finalUrl = src.href;
    let declared: number | undefined;
    if (src.kind === 'http' && ex) {
      const { res, url } = await request(src, 'GET', ex, opts.headers);
      declared = declaredLength(res);
      if (declared !== undefined && declared > opts.maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw imageError('too_large', 'resourceOverLimit', { url: src.href, size: formatBytes(declared), limit: formatBytes(opts.maxBytes) });
      }
      finalUrl = url;
      ex.arm('body');
      input = res.body ? Readable.fromWeb(res.body as WebReadableStream<Uint8Array>) : Readable.from([]);
    } else {
      const file = await resolveFileSource(src as Extract<ImageSource, { kind: 'file' }>, opts.files);
      input = createReadStream(file, opts.signal ? { signal: opts.signal } : {});
    }
    let bytes = 0;
    for await (const chunk of input.iterator({ destroyOnReturn: true })) {
      const b = chunk as Buffer;
      bytes += b.length;
      if (bytes > opts.maxBytes) {
        throw imageError('too_large', 'downloadOverLimit', { url: src.href, limit: formatBytes(opts.maxBytes) });
      }
      chunks.push(b);
      ex?.arm('body');
    }
    if (declared !== undefined && bytes !== declared) {
      throw imageError('truncated', 'downloadTruncated', { url: src.href, bytes, declared });
    }
    return { body: Buffer.concat(chunks), finalUrl };
  } catch (err) {
    if (!ex && opts.signal?.aborted) throw imageError('aborted', 'resourceReadAborted', { url: src.href }, { cause: err });
    throw classify(err, src.href, ex);
  } finally {
    ex?.dispose();
  }
}

/**
 * Size and modification time of a source without downloading it: an HTTP HEAD request (Ironic
 * `HttpImageService.show`), or `stat` for an allowed file.
 */
export async function headSource(href: string, opts: DownloadOptions = {}): Promise<SourceInfo> {
  const src = parseImageSource(href, opts.files);
  if (src.kind === 'file') {
    const st = await stat(await resolveFileSource(src, opts.files));
    return { size: st.size, lastModified: st.mtime, finalUrl: src.href };
  }
  const ex = new Exchange(opts.signal, opts.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS);
  try {
    const { res, url } = await request(src, 'HEAD', ex, opts.headers);
    await res.body?.cancel().catch(() => undefined);
    return { size: declaredLength(res), lastModified: lastModifiedOf(res.headers), finalUrl: url };
  } catch (err) {
    throw classify(err, src.href, ex);
  } finally {
    ex.dispose();
  }
}
