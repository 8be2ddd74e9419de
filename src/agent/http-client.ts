/**
 * The agent's HTTP client on node:http/https (the bundled agent has no dependencies, and `fetch` cannot
 * skip TLS verification per request, which `ipa-insecure` asks for). Follows up to 5 redirects, which
 * image stores use (temporary URLs), and times out when the server sends nothing for `timeoutMs`.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

/** Options of one request. */
export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** No answer (or no data) for this long fails the request. */
  timeoutMs?: number;
  /** Do not verify the server's TLS certificate. */
  insecure?: boolean;
  signal?: AbortSignal;
}

/** A buffered answer. */
export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const MAX_REDIRECTS = 5;

function once(url: URL, opts: HttpRequestOptions): Promise<IncomingMessage> {
  const lib = url.protocol === 'https:' ? https : http;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new Error(`unsupported URL scheme ${url.protocol} in ${url.href}`));
  const timeoutMs = opts.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...opts.headers };
    if (opts.body !== undefined) headers['Content-Length'] = Buffer.byteLength(opts.body);
    const req = lib.request(
      url,
      { method: opts.method ?? 'GET', headers, timeout: timeoutMs, signal: opts.signal, ...(url.protocol === 'https:' ? { rejectUnauthorized: !opts.insecure } : {}) },
      (res) => {
        res.setTimeout(timeoutMs, () => res.destroy(new Error(`no data from ${url.host} for ${timeoutMs} ms`)));
        resolve(res);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.host} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Sends a request and returns the response as a stream (following redirects); the caller consumes it. */
export async function httpStream(target: string, opts: HttpRequestOptions = {}): Promise<IncomingMessage> {
  let url = new URL(target);
  for (let hop = 0; ; hop++) {
    const res = await once(url, opts);
    const location = res.headers.location;
    if (res.statusCode && [301, 302, 303, 307, 308].includes(res.statusCode) && location && hop < MAX_REDIRECTS) {
      res.resume();
      url = new URL(location, url);
      continue;
    }
    return res;
  }
}

/** Sends a request and buffers the answer (at most `maxBytes`, default 16 MiB). */
export async function httpRequest(target: string, opts: HttpRequestOptions & { maxBytes?: number } = {}): Promise<HttpAnswer> {
  const res = await httpStream(target, opts);
  const max = opts.maxBytes ?? 16 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      res.destroy();
      throw new Error(`answer from ${target} is larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
}
