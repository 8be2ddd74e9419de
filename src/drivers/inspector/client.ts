/**
 * A small client of the ironic-inspector HTTP API (v1), the part the `inspector` inspect interface uses:
 * start an introspection with boot managed by the caller, read its status, abort it, and fetch the
 * processed data. Every request carries the API version header, a per-request timeout and the caller's
 * AbortSignal; failures become DriverOperationError whose message names the service, the request and
 * the inspector's own error text (`{"error": {"message": …}}`, `ironic_inspector/main.py` `error_response`).
 */
import type { JsonObject } from '../../domain/node.js';
import { fail, messageOf } from '../../shared/errors.js';

/**
 * The microversion asked for: 1.13 added `manage_boot` to `POST /v1/introspection/{node}` (inspector
 * API reference, "Version History"); everything else used here is older.
 */
export const INSPECTOR_API_VERSION = '1.13';
const VERSION_HEADER = 'X-OpenStack-Ironic-Inspector-API-Version';

/** `GET /v1/introspection/{node}`: where an introspection stands. */
export interface IntrospectionStatus {
  uuid: string;
  /** True once the inspector stopped working on the node (successfully or not). */
  finished: boolean;
  /** The inspector's state machine (`starting`, `waiting`, `processing`, `finished`, `error`, …); null before API 1.10. */
  state: string | null;
  /** Why it failed; null when it did not (yet). */
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

/** Options of {@link InspectorClient}. */
export interface InspectorClientOptions {
  /** Base URL of the service, e.g. `http://10.0.0.5:5050` (a trailing `/` or `/v1` is accepted). */
  url: string;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** The fetch to use (tests); default the global one. */
  fetch?: typeof fetch;
}

interface Answer {
  status: number;
  body: unknown;
}

/** A request to the service, for messages (the path without its query). */
interface InspectorRequest {
  url: string;
  method: string;
  path: string;
}

/** A client of one ironic-inspector service. Stateless apart from its settings; safe to share. */
export class InspectorClient {
  /** The base URL, without a trailing `/` or `/v1`. */
  readonly url: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(opts: InspectorClientOptions) {
    this.url = normalizeBaseUrl(opts.url);
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
    this.#fetch = opts.fetch ?? fetch;
  }

  /**
   * `POST /v1/introspection/{uuid}?manage_boot=…`: the inspector records the node (its BMC address and
   * port MACs become lookup attributes) and waits for the ramdisk's data. With `manageBoot` false the
   * caller powers the machine; the answer (202) comes once the inspector is ready for the data.
   */
  async start(uuid: string, opts: { manageBoot: boolean }, signal?: AbortSignal): Promise<void> {
    await this.#request('POST', `/v1/introspection/${encodeURIComponent(uuid)}?manage_boot=${opts.manageBoot}`, signal, [202]);
  }

  /** `GET /v1/introspection/{uuid}`; null when the inspector has no introspection of this node (404). */
  async status(uuid: string, signal?: AbortSignal): Promise<IntrospectionStatus | null> {
    const path = `/v1/introspection/${encodeURIComponent(uuid)}`;
    const answer = await this.#request('GET', path, signal, [200, 404]);
    if (answer.status === 404) return null;
    return parseStatus(answer.body, uuid, this.#describe('GET', path));
  }

  /** `POST /v1/introspection/{uuid}/abort`; false when the inspector has no introspection of this node (404). */
  async abort(uuid: string, signal?: AbortSignal): Promise<boolean> {
    const answer = await this.#request('POST', `/v1/introspection/${encodeURIComponent(uuid)}/abort`, signal, [202, 404]);
    return answer.status === 202;
  }

  /**
   * `GET /v1/introspection/{uuid}/data`: the processed data (`inventory` plus what the hooks added);
   * null when the inspector keeps no data (`[processing]store_data = none` answers 404).
   */
  async data(uuid: string, signal?: AbortSignal): Promise<JsonObject | null> {
    const path = `/v1/introspection/${encodeURIComponent(uuid)}/data`;
    const answer = await this.#request('GET', path, signal, [200, 404]);
    if (answer.status === 404) return null;
    if (!isObject(answer.body)) throw fail('inspectorDataNotObject', this.#describe('GET', path));
    return answer.body as JsonObject;
  }

  /** The request, as messages name it: `ironic-inspector at {url} ({method} {path})`. */
  #describe(method: string, path: string): InspectorRequest {
    return { url: this.url, method, path: path.split('?')[0] as string };
  }

  async #request(method: string, path: string, signal: AbortSignal | undefined, expected: number[]): Promise<Answer> {
    const what = this.#describe(method, path);
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await this.#fetch(`${this.url}${path}`, {
        method,
        headers: { [VERSION_HEADER]: INSPECTOR_API_VERSION, Accept: 'application/json' },
        signal: combined,
      });
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : fail('inspectorAborted', what);
      if (timeout.aborted) throw fail('inspectorTimedOut', { ...what, timeout: this.#timeoutMs / 1000 });
      throw fail('inspectorUnreachable', { ...what, reason: networkReason(err) }, { cause: err });
    }
    const body = parseJson(text);
    if (!expected.includes(res.status)) {
      throw fail('inspectorAnswered', { ...what, status: res.status, reason: errorText(body, text) });
    }
    return { status: res.status, body };
  }
}

/** `http://h:5050/`, `http://h:5050/v1` -> `http://h:5050`; ConfigInvalid for what is not an http(s) URL. */
export function normalizeBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw fail('inspectorUrlInvalid', { url });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw fail('inspectorUrlNotHttp', { url });
  }
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${parsed.origin}${path}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The inspector's error text: `{"error": {"message": "…"}}`, else the raw body (cut short). */
function errorText(body: unknown, text: string): string {
  if (isObject(body) && isObject(body.error) && typeof body.error.message === 'string') return body.error.message;
  const raw = text.trim();
  return raw ? raw.slice(0, 500) : '(empty body)';
}

/** The most telling part of a fetch failure (undici hides the socket error in `cause`). */
function networkReason(err: unknown): string {
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: string }).code;
    return code && !cause.message.includes(code) ? `${code} ${cause.message}` : cause.message;
  }
  return messageOf(err);
}

function parseStatus(body: unknown, uuid: string, what: InspectorRequest): IntrospectionStatus {
  if (!isObject(body) || typeof body.finished !== 'boolean') {
    throw fail('inspectorStatusInvalid', { ...what, body: String(JSON.stringify(body)?.slice(0, 300)) });
  }
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    uuid: str(body.uuid) ?? uuid,
    finished: body.finished,
    state: str(body.state),
    error: str(body.error),
    started_at: str(body.started_at),
    finished_at: str(body.finished_at),
  };
}
