/**
 * The image download: an HTTP/1.1 GET on node:net / node:tls that hands the answer's body to a sink as
 * it arrives, read into one reused buffer (`onread`), with back-pressure: when the sink takes only part
 * of a read, reading stops until the sink is ready again. Follows up to 5 redirects, decodes chunked
 * bodies, and times out when the server sends nothing for `timeoutMs`.
 *
 * NOTE: the image does not go through node:http (`../http-client.ts`), because its client copies every
 * body byte once more (llhttp's `on_body` → `Buffer::Copy`, a third of the CPU time under `perf`) into
 * a freshly allocated 64 KiB buffer per socket read. Receiving 512 MiB over loopback on a 2-core VM
 * (Node 20): node:http 0.7–1.6 s, a net socket's 'data' events ~0.5 s, `onread` into one buffer
 * ~0.2 s, `curl -o /dev/null` 0.35 s.
 */
import net from 'node:net';
import tls from 'node:tls';

/** Where the body goes. */
export interface BodySink {
  /**
   * Takes a prefix of `data` (valid only during the call) and returns how many bytes it took. Taking
   * fewer than all pauses the download until {@link BodySink.ready} resolves. Throwing stops the
   * download with that error.
   */
  take(data: Buffer): number;
  /** Resolves when `take` accepts bytes again. */
  ready(): Promise<void>;
}

/** Options of {@link downloadImage}. */
export interface DownloadImageOptions {
  headers?: Record<string, string>;
  /** No answer, or no data, for this long fails the download (default 60 s). */
  timeoutMs?: number;
  /** Do not verify the server's TLS certificate. */
  insecure?: boolean;
  signal?: AbortSignal;
  /**
   * Called once a 200 answer's head has arrived, before any body byte, with its `Content-Length`
   * (null when it has none or is chunked). Throwing refuses the answer unread.
   */
  onHead?: (length: number | null, url: string) => void;
  sink: BodySink;
}

/** A 200 answer whose body went to the sink. */
export interface DownloadedBody {
  status: 200;
  url: string;
  /** Body bytes the sink took. */
  bytes: number;
  /** The `Content-Length`, when the answer had one (the body may have ended early). */
  declared: number | null;
}

/** Any other final answer, with the start of its body. */
export interface RefusedDownload {
  status: number;
  url: string;
  text: string;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const READ_BYTES = 256 * 1024;
const MAX_HEAD_BYTES = 64 * 1024;
const ERROR_TEXT_BYTES = 4096;
const CRLFCRLF = Buffer.from('\r\n\r\n');

/** Downloads `target` into `opts.sink`; resolves with the final answer, rejects on network and sink errors. */
export async function downloadImage(target: string, opts: DownloadImageOptions): Promise<DownloadedBody | RefusedDownload> {
  let url = new URL(target);
  for (let hop = 0; ; hop++) {
    const outcome = await getOnce(url, opts, hop < MAX_REDIRECTS);
    if ('location' in outcome) {
      url = new URL(outcome.location, url);
      continue;
    }
    return outcome;
  }
}

interface Head {
  status: number;
  headers: Map<string, string>;
}

function parseHead(text: string, url: URL): Head {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!m) throw new Error(`${url.host} did not answer with HTTP/1.x: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  return { status: Number(m[1]), headers };
}

/** Decodes a body (length-delimited, chunked or up to the connection's end) into `take`. */
class BodyDecoder {
  /** Bytes of the current chunk (or of the whole body) still to come; -1 until the connection ends. */
  #left: number;
  readonly #chunked: boolean;
  #state: 'size' | 'data' | 'data-crlf' | 'trailer' | 'done' = 'data';
  #line = '';
  delivered = 0;

  constructor(length: number | null, chunked: boolean) {
    this.#chunked = chunked;
    this.#left = chunked ? 0 : (length ?? -1);
    if (chunked) this.#state = 'size';
    else if (length === 0) this.#state = 'done';
  }

  get done(): boolean {
    return this.#state === 'done';
  }

  /** True when the body may end with the connection (no length, not chunked). */
  get endsWithConnection(): boolean {
    return !this.#chunked && this.#left < 0;
  }

  /** Feeds `data`; returns how many bytes were consumed (fewer when `take` took fewer). */
  feed(data: Buffer, take: (body: Buffer) => number): number {
    let at = 0;
    while (at < data.length && this.#state !== 'done') {
      if (this.#state === 'data') {
        const n = this.#left < 0 ? data.length - at : Math.min(this.#left, data.length - at);
        const took = take(data.subarray(at, at + n));
        at += took;
        this.delivered += took;
        if (this.#left >= 0) this.#left -= took;
        if (took < n) return at;
        if (this.#left === 0) this.#state = this.#chunked ? 'data-crlf' : 'done';
        continue;
      }
      // Framing of a chunked body: lines, read a byte at a time (they are a few bytes per chunk).
      const c = data[at++] as number;
      if (c !== 0x0a) {
        if (c !== 0x0d) this.#line += String.fromCharCode(c);
        if (this.#line.length > 1024) throw new Error('chunked body: framing line longer than 1024 bytes');
        continue;
      }
      const line = this.#line;
      this.#line = '';
      if (this.#state === 'data-crlf') {
        if (line !== '') throw new Error('chunked body: no CRLF after chunk data');
        this.#state = 'size';
      } else if (this.#state === 'size') {
        const hex = (line.split(';')[0] ?? '').trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw new Error(`chunked body: bad chunk size ${JSON.stringify(line.slice(0, 40))}`);
        this.#left = parseInt(hex, 16);
        this.#state = this.#left === 0 ? 'trailer' : 'data';
      } else if (line === '') this.#state = 'done'; // end of the trailer section
    }
    return at;
  }
}

function getOnce(url: URL, opts: DownloadImageOptions, mayRedirect: boolean): Promise<DownloadedBody | RefusedDownload | { location: string }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new Error(`unsupported URL scheme ${url.protocol} in ${url.href}`));
  if (opts.signal?.aborted) return Promise.reject(opts.signal.reason as Error);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (secure ? 443 : 80);
  // Two read buffers: when the sink is full, the unconsumed rest of a read stays where it is while the
  // next reads (if any arrive before reading stops) go to the other buffer.
  const readBuffers = [Buffer.allocUnsafeSlow(READ_BYTES), Buffer.allocUnsafeSlow(READ_BYTES)];
  let current: 0 | 1 = 0;

  return new Promise((resolve, reject) => {
    let settled = false;
    let head: Head | null = null;
    let headBytes: Buffer[] = [];
    let headSize = 0;
    let body: BodyDecoder | null = null;
    let errorText: Buffer[] | null = null;
    let errorSize = 0;
    /** Received but not yet consumed, in order, while waiting for the sink. */
    const pending: Buffer[] = [];
    let waiting = false;
    /** The connection ended while data was pending (TLS may deliver what it decrypted, then the end, after reading stopped). */
    let endedWhileWaiting = false;
    /** A connection error while data was pending: reported only if that data does not complete the body. */
    let errorWhileWaiting: { error: Error } | null = null;

    const onread: net.OnReadOpts = {
      buffer: () => readBuffers[current] as Buffer,
      callback: (n: number, buf: Uint8Array): boolean => {
        const data = Buffer.from(buf.buffer, buf.byteOffset, n);
        if (!waiting) return feed(data);
        pending.push(Buffer.from(data));
        return false;
      },
    };
    // NOTE: tls.connect takes `onread` too (Node docs, tls.connect options), though @types/node lacks it.
    const tlsOptions: tls.ConnectionOptions & { onread: net.OnReadOpts } = { host, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: !opts.insecure, ALPNProtocols: ['http/1.1'], onread };
    const socket = secure ? tls.connect(tlsOptions) : net.connect({ host, port, onread });

    const onAbort = () => finish(opts.signal?.reason ?? new Error('aborted'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    function finish(err: unknown, value?: DownloadedBody | RefusedDownload | { location: string }): void {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err !== undefined) reject(err as Error);
      else resolve(value as DownloadedBody | RefusedDownload | { location: string });
    }

    function complete(): void {
      if (!head || !body) return;
      if (errorText) finish(undefined, { status: head.status, url: url.href, text: Buffer.concat(errorText).toString('utf8').slice(0, 300) });
      else finish(undefined, { status: 200, url: url.href, bytes: body.delivered, declared: declaredLength(head) });
    }

    /** Keeps the start of a non-200 body; takes everything, so that the answer is read to its end. */
    function collect(data: Buffer): number {
      if (errorText && errorSize < ERROR_TEXT_BYTES) {
        const part = Buffer.from(data.subarray(0, ERROR_TEXT_BYTES - errorSize));
        errorText.push(part);
        errorSize += part.length;
      }
      return data.length;
    }

    /** Keeps `rest` (first in line), waits for the sink, then consumes what is pending and reads on. */
    function waitForSink(rest: Buffer): void {
      waiting = true;
      pending.unshift(rest);
      // Reads that still arrive go to the buffer that does not hold `rest`.
      if (rest.buffer === readBuffers[current]?.buffer) current = current === 0 ? 1 : 0;
      socket.setTimeout(0);
      opts.sink.ready().then(
        () => {
          if (settled) return;
          waiting = false;
          socket.setTimeout(timeoutMs);
          while (pending.length > 0) if (!feed(pending.shift() as Buffer)) return;
          if (errorWhileWaiting) finish(errorWhileWaiting.error);
          else if (endedWhileWaiting) ended();
          else socket.resume();
        },
        (err: unknown) => finish(err),
      );
    }

    function onHead(all: Buffer, end: number): boolean {
      const parsed = parseHead(all.subarray(0, end).toString('latin1'), url);
      const rest = all.subarray(end + 4);
      if (parsed.status >= 100 && parsed.status < 200) {
        // An interim answer (103 Early Hints): the final one follows.
        headSize = 0;
        return rest.length ? feed(rest) : true;
      }
      head = parsed;
      const location = head.headers.get('location');
      if (REDIRECTS.has(head.status) && location && mayRedirect) {
        finish(undefined, { location });
        return false;
      }
      const chunked = /(?:^|,)\s*chunked\s*$/i.test(head.headers.get('transfer-encoding') ?? '');
      const length = chunked ? null : declaredLength(head);
      body = new BodyDecoder(length, chunked);
      if (head.status === 200) opts.onHead?.(length, url.href);
      else errorText = [];
      if (body.done) {
        complete();
        return false;
      }
      return rest.length ? feed(rest) : true;
    }

    /** Consumes what arrived; false stops reading (finished, failed, or waiting for the sink). */
    function feed(data: Buffer): boolean {
      if (settled) return false;
      try {
        if (!head) {
          headBytes.push(Buffer.from(data));
          headSize += data.length;
          const all = headBytes.length === 1 ? (headBytes[0] as Buffer) : Buffer.concat(headBytes);
          const end = all.indexOf(CRLFCRLF);
          if (end >= 0) {
            headBytes = [];
            return onHead(all, end);
          }
          if (headSize > MAX_HEAD_BYTES) throw new Error(`the answer of ${url.host} has a head larger than ${MAX_HEAD_BYTES} bytes`);
          headBytes = [all];
          return true;
        }
        if (!body) return false;
        const used = body.feed(data, errorText ? collect : (d) => opts.sink.take(d));
        if (body.done) {
          complete();
          return false;
        }
        if (used < data.length) {
          waitForSink(data.subarray(used));
          return false;
        }
        return true;
      } catch (err) {
        finish(err);
        return false;
      }
    }

    function ended(): void {
      if (settled) return;
      if (waiting) {
        endedWhileWaiting = true;
        return;
      }
      if (body?.endsWithConnection) complete();
      else if (body) finish(new Error(`${url.host} closed the connection after ${body.delivered} bytes of the body`));
      else finish(new Error(`${url.host} closed the connection before answering`));
    }

    socket.setTimeout(timeoutMs);
    socket.on('timeout', () => finish(new Error(head ? `no data from ${url.host} for ${timeoutMs} ms` : `no answer from ${url.host} within ${timeoutMs} ms`)));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      const headers: Record<string, string> = { Host: url.host, Accept: '*/*', 'Accept-Encoding': 'identity', Connection: 'close', ...opts.headers };
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\n${lines.join('')}\r\n`);
    });
    socket.on('error', (err) => {
      if (waiting) errorWhileWaiting ??= { error: err };
      else finish(err);
    });
    socket.on('end', ended);
    socket.on('close', ended);
  });
}

function declaredLength(head: Head): number | null {
  const raw = head.headers.get('content-length');
  if (raw === undefined) return null;
  const first = raw.split(',')[0]?.trim() ?? '';
  if (!/^\d{1,16}$/.test(first)) throw new Error(`bad Content-Length ${JSON.stringify(raw.slice(0, 40))}`);
  return Number(first);
}
