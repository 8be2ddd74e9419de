/**
 * A hand-written stand-in for ironic-inspector's HTTP API on a loopback port, for unit tests of the
 * `inspector` interface and its status periodic: it records every request and answers from a per-node
 * table the test sets (status, data), with the inspector's error envelope for what it does not know.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake received. */
export interface SeenRequest {
  method: string;
  path: string;
  query: string;
  version: string | undefined;
}

/** What the fake knows about one node's introspection. */
export interface FakeIntrospection {
  finished: boolean;
  error: string | null;
  state?: string;
  /** Processed data; omitted answers 404 as with `[processing]store_data = none`. */
  data?: Record<string, unknown>;
}

/** A running fake inspector. */
export interface FakeInspectorService {
  readonly url: string;
  readonly requests: SeenRequest[];
  readonly nodes: Map<string, FakeIntrospection>;
  /** Answer every request with this status and message instead (null: behave normally). */
  failWith: { status: number; message: string } | null;
  /** Do not answer at all (for timeouts) while true. */
  hang: boolean;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 and a free port; resolves once it listens. */
export async function startFakeInspector(): Promise<FakeInspectorService> {
  const requests: SeenRequest[] = [];
  const nodes = new Map<string, FakeIntrospection>();
  const hanging = new Set<ServerResponse>();
  const state = { failWith: null as { status: number; message: string } | null, hang: false };
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-openstack-ironic-inspector-api-maximum-version': '1.18' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const notFound = (res: ServerResponse, uuid: string) => send(res, 404, { error: { message: `Could not find node ${uuid} in cache` } });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const version = req.headers['x-openstack-ironic-inspector-api-version'];
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.search, version: Array.isArray(version) ? version[0] : version });
    req.resume();
    if (state.hang) {
      hanging.add(res);
      return;
    }
    if (state.failWith) return send(res, state.failWith.status, { error: { message: state.failWith.message } });
    const m = /^\/v1\/introspection\/([^/]+)(\/abort|\/data)?$/.exec(url.pathname);
    if (!m) return send(res, 404, { error: { message: 'not found' } });
    const uuid = decodeURIComponent(m[1] as string);
    const node = nodes.get(uuid);
    if (req.method === 'POST' && !m[2]) {
      nodes.set(uuid, { finished: false, error: null, state: 'waiting' });
      return send(res, 202);
    }
    if (!node) return notFound(res, uuid);
    if (req.method === 'POST' && m[2] === '/abort') {
      nodes.set(uuid, { ...node, finished: true, error: 'Canceled by operator', state: 'error' });
      return send(res, 202);
    }
    if (req.method === 'GET' && m[2] === '/data') {
      if (!node.data) return send(res, 404, { error: { message: 'Inspector is not configured to store data.' } });
      return send(res, 200, node.data);
    }
    if (req.method === 'GET' && !m[2]) {
      return send(res, 200, {
        uuid, finished: node.finished, error: node.error, state: node.state ?? (node.finished ? 'finished' : 'waiting'),
        started_at: '2026-01-01T00:00:00', finished_at: node.finished ? '2026-01-01T00:01:00' : null, links: [],
      });
    }
    return send(res, 405, { error: { message: 'method not allowed' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    nodes,
    get failWith() {
      return state.failWith;
    },
    set failWith(v) {
      state.failWith = v;
    },
    get hang() {
      return state.hang;
    },
    set hang(v) {
      state.hang = v;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback URL where nothing listens (a port bound and released). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
