/**
 * One BMC's HTTP(S) connection pool: keep-alive agent, TLS verification as driver_info asks, a timeout per
 * request, cancellation by AbortSignal, and redirects within the BMC's origin followed as sushy's HTTP
 * library follows them. It knows nothing of Redfish; the client above it does.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';

/** One HTTP exchange's outcome. `body` is the parsed JSON, or null when the body is empty or not JSON. */
export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: unknown;
}

export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** TLS failures Node reports by these codes are verification problems: retrying cannot help. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE', 'CERT_REJECTED', 'INVALID_CA',
]);

/** Redirects followed for one request at most; the last answer is returned after that. */
export const MAX_REDIRECTS = 5;

/**
 * The request to send after a redirect answer, or null to return the answer as it is: another origin (its
 * credentials and certificate checks are not this BMC's), no Location, or a 301/302/303 to a request that
 * is not a GET or HEAD (turning an action into a GET would lose the action while looking successful).
 * NOTE: sushy-tools answers 307 to a system named by its alias (`/redfish/v1/Systems/<name>`), pointing
 * to its UUID; some BMCs answer 301/308 for a collection asked without its trailing slash.
 */
export function redirected(req: HttpRequest, status: number, location: string | undefined): HttpRequest | null {
  if (![301, 302, 303, 307, 308].includes(status) || !location) return null;
  let next: URL;
  try {
    next = new URL(location, req.url);
  } catch {
    return null;
  }
  if (next.origin !== req.url.origin) return null;
  if (status === 307 || status === 308) return { ...req, url: next };
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  return { ...req, url: next };
}

/** The request never got an HTTP answer: refused, reset, timed out, or the certificate was not trusted. */
export class ConnectionFailure extends Error {
  /** Node's error code (`ECONNREFUSED`, `ETIMEDOUT`, `DEPTH_ZERO_SELF_SIGNED_CERT`, …). */
  readonly code: string;
  /** True for certificate verification failures (not worth retrying). */
  readonly tls: boolean;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionFailure';
    this.code = code;
    this.tls = TLS_CODES.has(code);
  }
}

function readCaBundle(path: string): Buffer[] {
  const st = statSync(path);
  if (st.isFile()) return [readFileSync(path)];
  return readdirSync(path)
    .filter((f) => /\.(pem|crt|cer)$/i.test(f))
    .map((f) => readFileSync(join(path, f)));
}

/** Keep-alive connections to one BMC origin. */
export class HttpTransport {
  readonly #agent: http.Agent;
  readonly #secure: boolean;

  constructor(origin: string, verifyCa: boolean | string) {
    this.#secure = origin.startsWith('https:');
    const common = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16, maxFreeSockets: 4, timeout: 60_000 };
    this.#agent = this.#secure
      ? new https.Agent({
          ...common,
          rejectUnauthorized: verifyCa !== false,
          ...(typeof verifyCa === 'string' ? { ca: readCaBundle(verifyCa) } : {}),
        })
      : new http.Agent(common);
  }

  /**
   * Sends one request, following up to {@link MAX_REDIRECTS} redirects within the origin (see
   * {@link redirected}); rejects with {@link ConnectionFailure} when no HTTP answer came, or the signal's reason.
   */
  async request(req: HttpRequest): Promise<HttpResponse> {
    let current = req;
    for (let hop = 0; ; hop += 1) {
      const res = await this.exchange(current);
      const location = res.headers.location;
      const next = hop < MAX_REDIRECTS ? redirected(current, res.status, location) : null;
      if (!next) return res;
      current = next;
    }
  }

  /** One HTTP exchange. */
  private exchange(req: HttpRequest): Promise<HttpResponse> {
    const { signal } = req;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const lib = this.#secure ? https : http;
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      const r = lib.request(req.url, { method: req.method, headers, agent: this.#agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => finish(() => reject(failure(err))));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = null;
          if (text.trim()) {
            try {
              body = JSON.parse(text);
            } catch {
              body = null;
            }
          }
          finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body }));
        });
      });
      const timer = setTimeout(() => {
        r.destroy(new ConnectionFailure('ETIMEDOUT', `no answer within ${req.timeoutMs} ms`));
      }, req.timeoutMs);
      const onAbort = () => {
        r.destroy();
        finish(() => reject(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      r.on('error', (err) => finish(() => reject(failure(err))));
      r.end(req.body);
    });
  }

  /** Closes idle connections and refuses nothing: later requests open new ones. */
  close(): void {
    this.#agent.destroy();
  }
}

function failure(err: unknown): ConnectionFailure {
  if (err instanceof ConnectionFailure) return err;
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  return new ConnectionFailure(typeof code === 'string' ? code : 'ECONNRESET', message, { cause: err });
}
