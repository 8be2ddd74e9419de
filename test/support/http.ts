/** Small HTTP helpers for tests that talk to a running Ingot (or Ironic) over loopback. */

/** A node as the API and the clients (`-f json`) show it: the fields the tests read. */
export interface NodeView {
  uuid: string;
  name: string | null;
  driver: string;
  provision_state: string;
  target_provision_state: string | null;
  power_state: string | null;
  maintenance: boolean;
  maintenance_reason: string | null;
  last_error: string | null;
  description: string | null;
  properties: Record<string, unknown>;
  extra: Record<string, unknown>;
  instance_info: Record<string, unknown>;
}

/** A JSON answer. */
export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Sends a request at microversion `version` (default `latest`) and parses the JSON answer, if any. */
export async function api<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  version = 'latest',
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { 'X-OpenStack-Ironic-API-Version': version };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** Like {@link api} but requires one of `expected` statuses; the error shows the answer. */
export async function apiOk<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  expected: number[] = [200, 201, 202, 204],
): Promise<T> {
  const r = await api<T>(base, method, path, body);
  if (!expected.includes(r.status)) {
    throw new Error(`${method} ${path}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  }
  return r.body;
}

/** Polls `GET /v1/nodes/{ident}` until `done(node)` holds; throws with the last node seen after `timeoutMs`. */
export async function waitNode<T extends Record<string, unknown>>(
  base: string,
  ident: string,
  done: (node: T) => boolean,
  timeoutMs = 30_000,
  version = 'latest',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const read = async () => (await api<T>(base, 'GET', `/v1/nodes/${encodeURIComponent(ident)}`, undefined, version)).body;
  let node = await read();
  while (!done(node)) {
    if (Date.now() > deadline) {
      throw new Error(`node ${ident} did not settle within ${timeoutMs} ms: provision_state ${String(node.provision_state)}, power_state ${String(node.power_state)}, last_error ${String(node.last_error)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
    node = await read();
  }
  return node;
}
