/**
 * The agent's calls to Ironic (or Ingot): the API version, lookup and heartbeat, as
 * `ipa:ironic_python_agent/ironic_api_client.py` makes them. The API version is read from `GET /`
 * (`default_version.version`) once; until it can be read the agent assumes 1.31 and sends no token,
 * as IPA does.
 */
import {
  AGENT_MAX_KNOWN_API_VERSION,
  AGENT_MIN_API_VERSION,
  AGENT_TOKEN_API_VERSION,
  AGENT_VERSION_API_VERSION,
  type HeartbeatRequest,
  type LookupResponse,
} from '../protocol/agent/lookup.js';
import { messageOf } from '../shared/errors.js';
import { httpRequest } from './http-client.js';

type Version = readonly [number, number];

const atLeast = (v: Version, min: Version) => v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);
const lowest = (a: Version, b: Version): Version => (atLeast(a, b) ? b : a);

/** What one lookup attempt gave. */
export type LookupAttempt = { kind: 'found'; answer: LookupResponse } | { kind: 'conflict'; reason: string } | { kind: 'retry'; reason: string };

/** A heartbeat refused with 409 (the node is locked): retried sooner. */
export class HeartbeatConflictError extends Error {}

/** Options of {@link IronicClient}. */
export interface IronicClientOptions {
  apiUrl: string;
  insecure?: boolean;
  /** Timeout of one request (default 60 s). */
  requestTimeoutMs?: number;
  signal?: AbortSignal;
}

/** Extracts Ironic's error text from an error body (`error_message` JSON, or the old nested form). */
export function errorText(status: number, body: Buffer): string {
  const text = body.toString('utf8');
  try {
    let doc = JSON.parse(text) as Record<string, unknown>;
    const inner = doc.error_message ?? doc;
    doc = typeof inner === 'string' ? (JSON.parse(inner) as Record<string, unknown>) : (inner as Record<string, unknown>);
    return `Error ${status}: ${String(doc.faultstring ?? doc.title ?? text)}`;
  } catch {
    return `Error ${status}: ${text.slice(0, 500)}`;
  }
}

/** A client of the Ironic API for the agent. */
export class IronicClient {
  private version: Version | null = null;
  readonly apiUrl: string;

  constructor(private readonly options: IronicClientOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
  }

  private request(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    return httpRequest(`${this.apiUrl}${path}`, {
      method,
      headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: this.options.requestTimeoutMs ?? 60_000,
      insecure: this.options.insecure,
      signal: this.options.signal,
    });
  }

  /** The server's default API version; 1.31 (not remembered) when it cannot be read. */
  async apiVersion(): Promise<Version> {
    if (this.version) return this.version;
    try {
      const answer = await this.request('GET', '/', {});
      const doc = JSON.parse(answer.body.toString('utf8')) as { default_version?: { version?: string } };
      const m = /^(\d+)\.(\d+)$/.exec(doc.default_version?.version ?? '');
      if (answer.status === 200 && m) return (this.version = [Number(m[1]), Number(m[2])]);
    } catch {
      // fall through: assume the oldest version the agent supports
    }
    return AGENT_MIN_API_VERSION;
  }

  /** One `GET /v1/lookup`; connection errors and non-200 answers say "retry", 409 "conflict". */
  async lookupOnce(addresses: readonly string[], nodeUuid?: string | null): Promise<LookupAttempt> {
    const query = new URLSearchParams({ addresses: addresses.join(',') });
    if (nodeUuid) query.set('node_uuid', nodeUuid);
    let answer;
    try {
      const v = lowest(await this.apiVersion(), AGENT_TOKEN_API_VERSION);
      answer = await this.request('GET', `/v1/lookup?${query}`, { 'X-OpenStack-Ironic-API-Version': `${v[0]}.${v[1]}` });
    } catch (err) {
      if (this.options.signal?.aborted) throw err;
      return { kind: 'retry', reason: messageOf(err) };
    }
    if (answer.status === 409) return { kind: 'conflict', reason: errorText(409, answer.body) };
    if (answer.status !== 200) return { kind: 'retry', reason: errorText(answer.status, answer.body) };
    let content: Record<string, unknown>;
    try {
      content = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
    } catch (err) {
      return { kind: 'retry', reason: `the answer is not JSON: ${messageOf(err)}` };
    }
    const node = content.node as { uuid?: unknown } | undefined;
    if (!node || typeof node.uuid !== 'string') return { kind: 'retry', reason: 'the answer has no node UUID' };
    if (!content.config) {
      // Old API: heartbeat_timeout at the top level.
      if (typeof content.heartbeat_timeout !== 'number') return { kind: 'retry', reason: 'the answer has no config' };
      content.config = { heartbeat_timeout: content.heartbeat_timeout };
    }
    return { kind: 'found', answer: content as unknown as LookupResponse };
  }

  /**
   * One `POST /v1/heartbeat/{uuid}`. Fields newer than the server's version are left out, as IPA does.
   * Throws HeartbeatConflictError on 409 and Error on anything but 202.
   */
  async heartbeat(nodeUuid: string, body: HeartbeatRequest): Promise<void> {
    const serverVersion = await this.apiVersion();
    const data: HeartbeatRequest = { callback_url: body.callback_url };
    if (atLeast(serverVersion, AGENT_TOKEN_API_VERSION)) data.agent_token = body.agent_token ?? null;
    if (atLeast(serverVersion, AGENT_VERSION_API_VERSION) && body.agent_version) data.agent_version = body.agent_version;
    if (atLeast(serverVersion, AGENT_MAX_KNOWN_API_VERSION) && body.agent_verify_ca) data.agent_verify_ca = body.agent_verify_ca;
    const v = lowest(serverVersion, AGENT_MAX_KNOWN_API_VERSION);
    const answer = await this.request('POST', `/v1/heartbeat/${encodeURIComponent(nodeUuid)}`, { 'X-OpenStack-Ironic-API-Version': `${v[0]}.${v[1]}`, Connection: 'close' }, data);
    if (answer.status === 409) throw new HeartbeatConflictError(errorText(409, answer.body));
    if (answer.status !== 202) throw new Error(errorText(answer.status, answer.body));
  }
}
