/**
 * The agent's REST API (IPA `api/app.py`), on node:http:
 *
 * - `GET /` and `GET /v1/`: version documents;
 * - `GET /v1/status`: `{started_at, version}`;
 * - `GET /v1/commands/`: `{commands: [result…]}`; `GET /v1/commands/{id}[?wait=true]`: one result;
 * - `POST /v1/commands/[?wait=true]` with `{name, params}` (`protocol/agent/commands.ts` `AgentCommandBody`):
 *   runs a command, answers its result.
 *
 * The same routes answer without the `/v1` prefix, as IPA's do. Errors are WSME-style
 * `{faultcode, faultstring}` bodies, which Ironic's agent client reads.
 *
 * Agent token: once the agent holds a token (from the lookup or the kernel command line), `POST` needs
 * `?agent_token=<token>` or is answered 401 "Token invalid.". `GET`s need it only once a `GET` has
 * carried one: IPA accepts token-less polls because Ironic's status polls send none.
 * NOTE: IPA also lets a token-less `POST` through while the conductor does not say
 * `agent_token_required` (clusters in the middle of an upgrade to Victoria); Ingot always requires it.
 */
import { timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCommandBody, type AgentFault, type AgentStatus } from '../../protocol/agent/commands.js';
import { checkSchema } from '../../protocol/json-schema-errors.js';
import { errorMessage, messageOf, type FailArgs, type MessageId } from '../../shared/errors.js';
import type { CommandRegistry } from './command-registry.js';
import { AgentRestError } from './errors.js';

/** Largest accepted command body: a config drive (≤ 64 MiB, gzipped, base64) fits. */
export const MAX_COMMAND_BODY_BYTES = 128 * 1024 * 1024;

/** Options of {@link createAgentApi}. */
export interface AgentApiOptions {
  registry: CommandRegistry;
  /** The token commands must carry, or null while the agent has none. */
  token: () => string | null;
  status: () => AgentStatus;
  /** Address to bind (default 0.0.0.0). */
  host?: string;
  /** Port to bind (default 9999; 0 picks a free one). */
  port?: number;
  log?: (message: string) => void;
}

/** The running API. */
export interface AgentApi {
  /** Resolves with the bound port once listening. */
  start(): Promise<number>;
  close(): Promise<void>;
  port(): number;
}

/** An HTTP-level refusal (werkzeug style: "401 Unauthorized: Token invalid."). */
class HttpFault extends Error {
  constructor(
    readonly status: number,
    text: string,
  ) {
    super(text);
  }
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Request Entity Too Large' };
/** The refusal `status` whose description is message `id` with `values`. */
function fault<M extends MessageId>(status: number, id: M, ...args: FailArgs<M>): HttpFault {
  return new HttpFault(status, `${status} ${REASONS[status] ?? ''}: ${errorMessage(id, ...args).message}`);
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_COMMAND_BODY_BYTES) {
        req.destroy();
        reject(fault(413, 'agentBodyTooLarge', { limit: MAX_COMMAND_BODY_BYTES }));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function versionDoc(root: string): Record<string, unknown> {
  return {
    id: 'v1',
    links: [
      { href: `${root}/v1/`, rel: 'self' },
      { href: 'https://docs.openstack.org/ironic-python-agent', rel: 'describedby', type: 'text/html' },
    ],
  };
}

/** Creates the agent's API server (not yet listening). */
export function createAgentApi(options: AgentApiOptions): AgentApi {
  const { registry } = options;
  // IPA's `security_get_token_support`: set once any GET carries a token.
  let getsCarryToken = false;

  const checkToken = (given: string | null, isGet: boolean) => {
    const expected = options.token();
    if (isGet) {
      if (given) getsCarryToken = true;
      if (!getsCarryToken) return;
    }
    if (expected === null ? given !== null && given !== '' : given === null || !sameToken(given, expected)) {
      throw fault(401, 'agentApiTokenInvalid');
    }
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://agent');
    const path = url.pathname.replace(/^\/v1(?=\/|$)/, '') || '/';
    const isV1 = url.pathname.startsWith('/v1');
    const wait = url.searchParams.get('wait')?.toLowerCase() === 'true';
    const token = url.searchParams.get('agent_token');
    const root = `http://${req.headers.host ?? 'agent'}`;
    const method = req.method ?? 'GET';

    if (path === '/' && method === 'GET') {
      if (isV1) {
        return send(res, 200, {
          ...versionDoc(root),
          commands: [{ href: `${root}/v1/commands`, rel: 'self' }, { href: `${root}/commands`, rel: 'bookmark' }],
          status: [{ href: `${root}/v1/status`, rel: 'self' }, { href: `${root}/status`, rel: 'bookmark' }],
          media_types: [{ base: 'application/json', type: 'application/vnd.openstack.ironic-python-agent.v1+json' }],
        });
      }
      return send(res, 200, {
        name: 'OpenStack Ironic Python Agent API',
        description: 'Ironic Python Agent is a provisioning agent for OpenStack Ironic',
        versions: [versionDoc(root)],
        default_version: versionDoc(root),
      });
    }
    if (path === '/status' && method === 'GET') return send(res, 200, options.status());
    if (path === '/commands' || path === '/commands/') {
      if (method === 'GET') {
        checkToken(token, true);
        return send(res, 200, { commands: registry.list() });
      }
      if (method === 'POST') {
        let body: unknown;
        try {
          body = JSON.parse((await readBody(req)).toString('utf8'));
        } catch (err) {
          if (err instanceof HttpFault) throw err;
          throw fault(400, 'agentBodyNotJson', { reason: messageOf(err) });
        }
        const command = checkSchema(AgentCommandBody, body, () => fault(400, 'agentCommandBodyInvalid'));
        checkToken(token, false);
        const record = await registry.execute(command.name, command.params);
        if (wait) await record.finished;
        return send(res, 200, record.view());
      }
      throw fault(405, 'agentMethodNotAllowed');
    }
    const one = /^\/commands\/([^/]+)$/.exec(path);
    if (one && method === 'GET') {
      checkToken(token, true);
      const record = registry.get(decodeURIComponent(one[1] as string));
      if (wait) await record.finished;
      return send(res, 200, record.view());
    }
    throw fault(404, 'urlNotFound');
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      let status: number;
      let text: string;
      if (err instanceof HttpFault) [status, text] = [err.status, err.message];
      else if (err instanceof AgentRestError) [status, text] = [err.code, err.message];
      else [status, text] = [500, messageOf(err)];
      if (status >= 500) options.log?.(`API error on ${req.method} ${req.url}: ${text}`);
      const body: AgentFault = { faultcode: status >= 500 ? 'Server' : 'Client', faultstring: text };
      if (!res.headersSent) send(res, status, body);
      else res.destroy();
    });
  });
  // Long-running `wait=true` requests must not be cut by Node's default request timeout.
  server.requestTimeout = 0;

  return {
    start() {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 9999, options.host ?? '0.0.0.0', () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    port: () => (server.address() as AddressInfo | null)?.port ?? 0,
  };
}
