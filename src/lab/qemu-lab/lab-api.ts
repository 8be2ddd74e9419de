/** A small client of the lab's Ingot API (Ironic API v1 over plain HTTP, at the latest microversion). */
import { fail } from '../../shared/errors.js';

/** The node fields the lab reads. */
export interface LabNodeView {
  uuid: string;
  name: string | null;
  driver: string;
  provision_state: string;
  power_state: string | null;
  target_provision_state: string | null;
  reservation: string | null;
  last_error: string | null;
  maintenance: boolean;
}

const REQUEST_TIMEOUT_MS = 15_000;

/** Calls the API at `base`; retries 409 (node locked) and 503 (workers busy) for a while. */
export class LabApi {
  constructor(readonly base: string, private readonly signal?: AbortSignal) {}

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(this.signal ? [this.signal] : [])];
      let res: Response;
      try {
        res = await fetch(`${this.base}${url}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-openstack-ironic-api-version': 'latest' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.any(signals),
        });
      } catch (err) {
        this.signal?.throwIfAborted();
        const { message, cause } = err as Error;
        throw fail('labApiUnreachable', { method, url: `${this.base}${url}`, reason: cause ? `${message} (${String(cause)})` : message });
      }
      const text = await res.text();
      if ((res.status === 409 || res.status === 503) && attempt < 50) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      if (!res.ok) throw fail('labApiRefused', { method, path: url, status: res.status, body: text });
      return (text ? JSON.parse(text) : null) as T;
    }
  }

  async nodes(): Promise<LabNodeView[]> {
    const fields = 'uuid,name,driver,provision_state,power_state,target_provision_state,reservation,last_error,maintenance';
    return (await this.call<{ nodes: LabNodeView[] }>('GET', `/v1/nodes?fields=${fields}&limit=1000`)).nodes;
  }

  node(ident: string): Promise<LabNodeView> {
    return this.call<LabNodeView>('GET', `/v1/nodes/${encodeURIComponent(ident)}`);
  }

  /**
   * Polls node `ident` until `done` holds; throws DriverOperationError with the last state seen after
   * `timeoutMs`, or as soon as the node lands in a failure state (`… failed`) it was not waiting for.
   */
  async waitNode(ident: string, done: (n: LabNodeView) => boolean, timeoutMs: number): Promise<LabNodeView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const n = await this.node(ident);
      if (done(n)) return n;
      if (n.reservation === null && n.provision_state.endsWith('failed')) {
        throw fail('labNodeFailed', { node: n.name ?? ident, state: n.provision_state, error: n.last_error ?? '' });
      }
      if (Date.now() > deadline) {
        throw fail('labNodeUnsettled', { node: n.name ?? ident, seconds: timeoutMs / 1000, state: n.provision_state, power: n.power_state ?? '?', error: n.last_error ?? 'none' });
      }
      this.signal?.throwIfAborted();
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Resolves once GET `<base>/v1` answers 200; throws DriverOperationError after `timeoutMs` or when `gone()` says the server died. */
export async function waitForApi(base: string, timeoutMs: number, gone: () => string | undefined, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    signal?.throwIfAborted();
    const why = gone();
    if (why) throw fail('labServeStopped', { reason: why });
    try {
      const res = await fetch(`${base}/v1`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > deadline) throw fail('labApiSilent', { url: base, seconds: timeoutMs / 1000, last });
    await new Promise((r) => setTimeout(r, 200));
  }
}
