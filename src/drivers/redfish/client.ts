/**
 * The Redfish client: one per BMC and credentials, shared by every task that talks to that BMC. It adds
 * to plain HTTP what Redfish services need: session or basic authentication (re-login once on 401),
 * retries with exponential back-off on connection errors, 5xx and 409, `If-Match` on PATCH, task monitors
 * for 202 Accepted, and a bound on the requests in flight per BMC. Every wait honours the caller's signal.
 */
import type { RedfishDriverInfo } from './driver-info.js';
import { redfishError, type RedfishError, redfishErrorMessage } from './errors.js';
import type { RetryObserver } from '../retry-log.js';
import { retryAfterMs } from './retry-after.js';
import { followTaskMonitor } from './task-monitor.js';
import type { Semaphore } from './semaphore.js';
import type { RedfishSettings } from './settings.js';
import type { RedfishReply, RedfishResource } from './reply.js';
import { ConnectionFailure, MAX_REDIRECTS, type HttpResponse, type HttpTransport } from './transport.js';
import { retry } from '../../shared/retry.js';

export type { RedfishReply, RedfishResource } from './reply.js';

interface SendOptions {
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Send no credentials (service root, login). */
  anonymous?: boolean;
}

const SERVICE_ROOT = '/redfish/v1/';

function isRecord(v: unknown): v is RedfishResource {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `@odata.id` of a link object (`{"@odata.id": "/redfish/v1/…"}`), or null. */
export function odataId(link: unknown): string | null {
  return isRecord(link) && typeof link['@odata.id'] === 'string' ? link['@odata.id'] : null;
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function header(h: HttpResponse['headers'], name: string): string | null {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

/** An answer with a retryable status (409, or 5xx but 501 and 505) while retries are allowed: carried out of an attempt. */
class RetryableAnswer extends Error {
  constructor(readonly reply: RedfishReply, readonly res: HttpResponse) {
    super(`HTTP ${res.status}`);
  }
}

export class RedfishClient {
  /** `https://host:port[/prefix]`: how messages name this BMC. */
  readonly bmc: string;
  #mode: 'basic' | 'session' | null = null;
  #token: string | null = null;
  #sessionUri: string | null = null;
  #login: Promise<void> | null = null;
  #root: RedfishResource | null = null;
  #systemPath: string | null = null;
  #closed = false;
  #inFlight = 0;
  #retired = false;

  constructor(
    readonly info: RedfishDriverInfo,
    readonly settings: RedfishSettings,
    private readonly transport: HttpTransport,
    private readonly limiter: Semaphore,
    private readonly onRetry: RetryObserver = () => undefined,
  ) {
    this.bmc = info.origin + info.prefix;
  }

  /** GETs a resource and returns its body; throws {@link RedfishError} on anything but 2xx. */
  async get(path: string, signal?: AbortSignal): Promise<RedfishResource> {
    const reply = await this.request('GET', path, { signal });
    return reply.body ?? {};
  }

  /** GETs a resource with its ETag. */
  async getWithEtag(path: string, signal?: AbortSignal): Promise<RedfishReply> {
    return this.request('GET', path, { signal });
  }

  /** POSTs (an action); a 202 with a task monitor is followed to its end. */
  async post(path: string, body: unknown, signal?: AbortSignal): Promise<RedfishReply> {
    return this.afterTask(await this.request('POST', path, { body, signal }), `POST ${path}`, signal);
  }

  /**
   * PATCHes a resource guarded by its ETag (DSP0266 §8.3 "Modification requests"): reads the ETag, sends it
   * in `If-Match`, and on 412 Precondition Failed reads it again and retries once.
   */
  async patch(path: string, body: unknown, signal?: AbortSignal): Promise<RedfishReply> {
    for (let round = 0; ; round += 1) {
      const { etag } = await this.request('GET', path, { signal });
      const headers: Record<string, string> = etag ? { 'if-match': etag } : {};
      const reply = await this.send('PATCH', path, { body, headers, signal });
      if (reply.status === 412 && round === 0) continue;
      this.check(reply, 'PATCH', path);
      return this.afterTask(reply, `PATCH ${path}`, signal);
    }
  }

  /** DELETEs a resource. */
  async delete(path: string, signal?: AbortSignal): Promise<RedfishReply> {
    return this.afterTask(await this.request('DELETE', path, { signal }), `DELETE ${path}`, signal);
  }

  /** The service root (cached). */
  async serviceRoot(signal?: AbortSignal): Promise<RedfishResource> {
    if (!this.#root) this.#root = (await this.request('GET', SERVICE_ROOT, { signal, anonymous: this.#mode !== 'basic' })).body ?? {};
    return this.#root;
  }

  /**
   * The path of the node's system: driver_info `redfish_system_id`, or the only member of the Systems
   * collection. Throws MissingParameterValue when there are several.
   */
  async systemPath(signal?: AbortSignal): Promise<string> {
    if (this.info.systemId) return this.info.systemId;
    if (this.#systemPath) return this.#systemPath;
    const root = await this.serviceRoot(signal);
    const systems = odataId(root['Systems']) ?? '/redfish/v1/Systems';
    const members = (await this.get(systems, signal))['Members'];
    const ids = Array.isArray(members) ? members.map(odataId).filter((m): m is string => m !== null) : [];
    if (ids.length !== 1) {
      throw redfishError(null, 'redfishSystemAmbiguous', { bmc: this.bmc, count: ids.length, systems: ids.join(', ') || 'none' });
    }
    this.#systemPath = ids[0] as string;
    return this.#systemPath;
  }

  /** Sends a request and throws {@link RedfishError} unless the answer is 2xx. */
  async request(method: string, path: string, opts: SendOptions = {}): Promise<RedfishReply> {
    return this.check(await this.send(method, path, opts), method, path);
  }

  /** Ends the session (DELETE) if there is one; the client may log in again afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    const uri = this.#sessionUri;
    const token = this.#token;
    this.#token = null;
    this.#sessionUri = null;
    if (uri && token) {
      try {
        await this.transport.request({
          method: 'DELETE', url: this.url(uri), headers: { 'x-auth-token': token, accept: 'application/json' },
          timeoutMs: Math.min(this.timeoutMs(), 10_000),
        });
      } catch {
        // The BMC expires unused sessions itself; nothing else to do.
      }
    }
    this.transport.close();
  }

  /**
   * Closes the client once no request is in flight (at once when idle): how a cache drops a client that
   * another task may still be using.
   */
  retire(): void {
    this.#retired = true;
    if (this.#inFlight === 0) void this.close();
  }

  /** Follows a 202's task monitor, if any, to the operation's final answer. */
  private afterTask(reply: RedfishReply, what: string, signal?: AbortSignal): Promise<RedfishReply> {
    return followTaskMonitor(reply, {
      bmc: this.bmc,
      what,
      timeoutMs: this.settings.task_timeout_ms,
      pollIntervalMs: this.settings.task_poll_interval_ms,
      poll: async (monitor) => this.check(await this.send('GET', monitor, signal ? { signal } : {}), 'GET', monitor),
      ...(signal ? { signal } : {}),
    });
  }

  /** True once `close()` ran. */
  get closed(): boolean {
    return this.#closed;
  }

  private timeoutMs(): number {
    return this.info.requestTimeoutMs ?? this.settings.request_timeout_ms;
  }

  private url(path: string): URL {
    if (/^https?:\/\//i.test(path)) return new URL(path);
    const p = path.startsWith('/') ? path : `/${path}`;
    // NOTE: links in bodies are absolute paths on the BMC; behind a prefixing proxy they may carry the prefix already.
    const withPrefix = this.info.prefix && !p.startsWith(`${this.info.prefix}/`) ? this.info.prefix + p : p;
    return new URL(withPrefix, this.info.origin);
  }

  private check(reply: RedfishReply, method: string, path: string): RedfishReply {
    if (reply.status >= 200 && reply.status < 300) return reply;
    throw this.statusError(reply, method, path);
  }

  /**
   * The error of a non-2xx answer: why (credentials, a redirect not followed), and after how many
   * attempts (`attempts`) or that a login answer had no token (`noToken`).
   */
  private statusError(reply: RedfishReply, method: string, path: string, after: { attempts?: number; noToken?: boolean } = {}): RedfishError {
    const answer = { bmc: this.bmc, status: reply.status, method, path, reason: redfishErrorMessage(reply.body, reply.text) };
    if (reply.status === 401) return redfishError(401, 'redfishCredentialsRejected', answer);
    const redirect = this.redirectError(reply, method, answer);
    if (redirect) return redirect;
    if (after.noToken) return redfishError(reply.status, 'redfishLoginNoToken', answer);
    if (after.attempts !== undefined) return redfishError(reply.status, 'redfishAnsweredGaveUp', { ...answer, attempts: after.attempts });
    return redfishError(reply.status, 'redfishAnswered', answer);
  }

  /** Why a redirect answer was not followed (the transport follows those within the BMC's origin), or null. */
  private redirectError(reply: RedfishReply, method: string, answer: { bmc: string; status: number; method: string; path: string; reason: string }): RedfishError | null {
    const location = header(reply.headers, 'location');
    if (reply.status < 300 || reply.status >= 400 || !location) return null;
    const target = URL.canParse(location, this.info.origin) ? new URL(location, this.info.origin) : null;
    if (!target) return redfishError(reply.status, 'redfishRedirectNotUrl', { ...answer, location });
    if (target.origin !== this.info.origin) {
      return redfishError(reply.status, 'redfishRedirectOtherOrigin', { ...answer, location: target.href, origin: target.origin });
    }
    if (reply.status === 307 || reply.status === 308 || method === 'GET' || method === 'HEAD') {
      return redfishError(reply.status, 'redfishTooManyRedirects', { ...answer, max: MAX_REDIRECTS, location });
    }
    return redfishError(reply.status, 'redfishRedirectToGet', { ...answer, location });
  }

  private static retryable(status: number): boolean {
    return status === 409 || (status >= 500 && status !== 501 && status !== 505);
  }

  /** One logical request: authentication, retries and re-login; returns whatever status finally came. */
  private async send(method: string, path: string, opts: SendOptions): Promise<RedfishReply> {
    this.#inFlight += 1;
    try {
      return await this.sendCounted(method, path, opts);
    } finally {
      this.#inFlight -= 1;
      if (this.#retired && this.#inFlight === 0 && !this.#closed) void this.close();
    }
  }

  private async sendCounted(method: string, path: string, opts: SendOptions): Promise<RedfishReply> {
    const attempts = Math.max(1, this.settings.connection_attempts);
    const relogin = { done: false };
    try {
      return await retry(async () => {
        const { reply, res } = await this.attemptOnce(method, path, opts, relogin);
        if (RedfishClient.retryable(res.status) && attempts > 1) throw new RetryableAnswer(reply, res);
        return reply;
      }, {
        // The [redfish] settings: connection_retry_interval doubling up to max_retry_interval, or longer as
        // a Retry-After asks (still capped).
        backoff: { initialMs: this.settings.connection_retry_interval_ms, maxMs: this.settings.max_retry_interval_ms },
        attempts,
        retryable: (err) => err instanceof ConnectionFailure || err instanceof RetryableAnswer,
        askedDelayMs: (err) => (err instanceof RetryableAnswer ? retryAfterMs(err.res.headers['retry-after']) : null),
        onRetry: (attempt, err, delayMs) => this.onRetry({
          bmc: this.bmc, operation: `${method} ${path}`, attempt, delayMs,
          reason: err instanceof ConnectionFailure ? `${err.code} ${err.message}` : `HTTP ${(err as RetryableAnswer).res.status}`,
        }),
        signal: opts.signal,
      });
    } catch (err) {
      if (err instanceof RetryableAnswer) throw this.statusError(err.reply, method, path, { attempts });
      if (err instanceof ConnectionFailure) {
        throw redfishError(null, 'redfishUnreachable', { bmc: this.bmc, method, path, attempts, code: err.code, reason: err.message }, { cause: err });
      }
      throw err;
    }
  }

  /**
   * One attempt: the request, sent again once after a 401 in session mode with a new login (that resend
   * is the same attempt). Rejects with {@link ConnectionFailure} when no answer came (retryable), or a
   * RedfishError when the certificate is not trusted.
   */
  private async attemptOnce(method: string, path: string, opts: SendOptions, relogin: { done: boolean }): Promise<{ reply: RedfishReply; res: HttpResponse }> {
    for (;;) {
      if (!opts.anonymous) await this.ensureAuth(opts.signal);
      const sentToken = this.#token;
      let res: HttpResponse;
      try {
        res = await this.limiter.run(() => this.transport.request({
          method,
          url: this.url(path),
          headers: { accept: 'application/json', ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...this.authHeaders(opts.anonymous), ...opts.headers },
          ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
          timeoutMs: this.timeoutMs(),
          ...(opts.signal ? { signal: opts.signal } : {}),
        }), opts.signal);
      } catch (err) {
        if (err instanceof ConnectionFailure && err.tls) {
          throw redfishError(null, 'redfishTlsUntrusted', { bmc: this.bmc, code: err.code, reason: err.message }, { cause: err });
        }
        throw err;
      }
      const reply: RedfishReply = { status: res.status, body: isRecord(res.body) ? res.body : null, etag: header(res.headers, 'etag'), headers: res.headers, text: res.text };
      if (reply.etag === null && reply.body && typeof reply.body['@odata.etag'] === 'string') reply.etag = reply.body['@odata.etag'];
      if (res.status === 401 && this.#mode === 'session' && !opts.anonymous && !relogin.done) {
        relogin.done = true;
        // Another request may have logged in again already; only drop the token this request used.
        if (this.#token === sentToken) this.#token = null;
        continue;
      }
      return { reply, res };
    }
  }

  private authHeaders(anonymous?: boolean): Record<string, string> {
    if (anonymous) return {};
    if (this.#mode === 'session' && this.#token) return { 'x-auth-token': this.#token };
    if (this.#mode === 'basic' && this.info.username !== null) {
      const cred = Buffer.from(`${this.info.username}:${this.info.password ?? ''}`).toString('base64');
      return { authorization: `Basic ${cred}` };
    }
    return {};
  }

  /** Decides the auth mode once, and logs in when sessions are used and there is no token. */
  private async ensureAuth(signal?: AbortSignal): Promise<void> {
    if (this.#mode === 'basic' || (this.#mode === 'session' && this.#token)) return;
    if (this.info.username === null) {
      this.#mode = 'basic';
      return;
    }
    if (this.info.authType === 'basic') {
      this.#mode = 'basic';
      return;
    }
    // The login is shared by every request waiting for it, so it runs on no one's signal (request timeouts
    // bound it); each waiter stops waiting when its own signal aborts.
    this.#login ??= this.login().finally(() => {
      this.#login = null;
    });
    await abortable(this.#login, signal);
  }

  private async login(): Promise<void> {
    const root = await this.serviceRoot();
    const links = isRecord(root['Links']) ? root['Links'] : {};
    let sessions = odataId(links['Sessions']);
    if (!sessions && odataId(root['SessionService'])) {
      const service = await this.request('GET', odataId(root['SessionService']) as string, { anonymous: true }).catch(() => null);
      sessions = odataId(service?.body?.['Sessions']) ?? '/redfish/v1/SessionService/Sessions';
    }
    if (!sessions) {
      if (this.info.authType === 'auto') {
        this.#mode = 'basic';
        return;
      }
      throw redfishError(null, 'redfishNoSessionService', { bmc: this.bmc });
    }
    const reply = await this.send('POST', sessions, { body: { UserName: this.info.username, Password: this.info.password ?? '' }, anonymous: true });
    const token = header(reply.headers, 'x-auth-token');
    if (reply.status >= 200 && reply.status < 300 && token) {
      this.#mode = 'session';
      this.#token = token;
      this.#sessionUri = header(reply.headers, 'location') ?? odataId(reply.body);
      this.#closed = false;
      return;
    }
    if (this.info.authType === 'auto' && reply.status !== 401 && reply.status !== 403) {
      this.#mode = 'basic';
      return;
    }
    throw this.statusError(reply, 'POST', sessions, { noToken: reply.status < 300 });
  }
}
