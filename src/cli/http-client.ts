/**
 * A small HTTP client for the Ironic REST API v1: sends the microversion header, decodes the error
 * envelope into {@link ApiError}, and follows `next` links to read whole collections.
 */
import { API_VERSION_HEADER } from '../protocol/client/wire.js';
import { ApiError, faultOf } from './api-error.js';
import { fail } from '../shared/errors.js';

/** Where and how to talk to the API. */
export interface ClientOptions {
  /** Endpoint root, e.g. `http://127.0.0.1:6385` (a trailing `/v1` is accepted and dropped). */
  url: string;
  /** Requested microversion, `latest` or `1.Y`. */
  apiVersion: string;
  fetch: typeof fetch;
}

/** Query parameters; `undefined` entries are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** An Ironic API client bound to one endpoint and microversion. */
export class IronicClient {
  readonly base: URL;
  readonly apiVersion: string;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    let url = options.url.trim().replace(/\/+$/, '');
    if (url.endsWith('/v1')) url = url.slice(0, -3);
    let base: URL;
    try {
      base = new URL(`${url}/`);
    } catch {
      throw fail('endpointUrlInvalid', { url: options.url });
    }
    this.base = base;
    this.apiVersion = options.apiVersion;
    this.#fetch = options.fetch;
  }

  /** The minor microversion requested, or `Infinity` for `latest`. */
  get minor(): number {
    const m = /^1\.(\d+)$/.exec(this.apiVersion);
    return m ? Number(m[1]) : Infinity;
  }

  /** URL of `path` (relative to `/v1/`) with `query`. */
  url(path: string, query: Query = {}): URL {
    const url = new URL(`v1/${path.replace(/^\/+/, '')}`, this.base);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** Sends one request and returns the decoded JSON body (`undefined` when empty). */
  async request<T = unknown>(method: string, target: string | URL, body?: unknown): Promise<T> {
    const url = typeof target === 'string' ? this.url(target) : target;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      [API_VERSION_HEADER]: this.apiVersion,
      'User-Agent': 'ingot-cli',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await this.#fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      const cause = (err as { cause?: { message?: string; code?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
      throw new Error(`cannot reach ${this.base.origin}: ${why}`);
    }
    const text = await res.text();
    if (!res.ok) {
      const fault = faultOf(text, res.statusText);
      throw new ApiError(res.status, fault.message, fault.faultcode);
    }
    if (text.trim() === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`${method} ${url.pathname}: the server answered ${res.status} with a body that is not JSON`);
    }
  }

  get<T = unknown>(path: string, query: Query = {}): Promise<T> {
    return this.request<T>('GET', this.url(path, query));
  }

  /**
   * Every item of a collection: reads `path` with `query` and follows `next` links until a page comes
   * without one. The `next` URL's path and query are used against this client's endpoint, so a server
   * that advertises another host name (behind a proxy) still works.
   */
  async listAll<T>(path: string, key: string, query: Query = {}): Promise<T[]> {
    const items: T[] = [];
    let url: URL | undefined = this.url(path, query);
    const seen = new Set<string>();
    while (url) {
      seen.add(url.href);
      const page: Record<string, unknown> = await this.request<Record<string, unknown>>('GET', url);
      const batch = page?.[key];
      if (!Array.isArray(batch)) throw new Error(`GET ${url.pathname}: the answer has no '${key}' list`);
      items.push(...(batch as T[]));
      const next = page['next'];
      url = typeof next === 'string' && next !== '' && batch.length > 0 ? this.follow(next) : undefined;
      if (url && seen.has(url.href)) throw new Error(`GET ${url.pathname}: the server repeated a 'next' link; stopping`);
    }
    return items;
  }

  /** The URL to fetch for a `next` link: its path and query on this client's origin. */
  follow(next: string): URL {
    const link = new URL(next, this.base);
    const url = new URL(link.pathname + link.search, this.base.origin);
    return url;
  }
}
