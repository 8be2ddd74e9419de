/**
 * A programmable HTTP server on 127.0.0.1 for image download tests: per-path answers (status, body,
 * headers, redirects, stalls, short bodies) and a log of every request so tests can count downloads.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';

/** How the server answers one path. */
export interface Route {
  status?: number;
  body?: Buffer | string;
  headers?: Record<string, string>;
  /** Answer 302 to this location. */
  redirect?: string;
  /** Never send the headers (the client must time out or abort). */
  hang?: boolean;
  /** Send the headers and this many body bytes, then stall with the connection open. */
  stallAfter?: number;
  /** Announce the full length but close the connection after this many bytes. */
  cutAfter?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Leave out Content-Length (chunked). */
  chunked?: boolean;
}

export class FixtureServer {
  readonly requests: { method: string; path: string }[] = [];
  private readonly routes = new Map<string, Route>();
  private server: Server | undefined;
  private base = '';

  /** Sets (or replaces) the answer for `path`. */
  route(path: string, r: Route): this {
    this.routes.set(path, r);
    return this;
  }

  /** Requests seen for `path`, optionally of one method. */
  count(path: string, method?: string): number {
    return this.requests.filter((r) => r.path === path && (!method || r.method === method)).length;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => void this.answer(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    if (!addr || typeof addr === 'string') throw new Error('no address');
    this.base = `http://127.0.0.1:${addr.port}`;
    return this.base;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = undefined;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] as string;
    this.requests.push({ method: req.method ?? 'GET', path });
    const r = this.routes.get(path);
    if (!r) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
    if (r.hang) return;
    if (r.redirect) {
      res.writeHead(302, { Location: r.redirect }).end();
      return;
    }
    const body = typeof r.body === 'string' ? Buffer.from(r.body) : (r.body ?? Buffer.alloc(0));
    const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream', ...r.headers };
    if (!r.chunked) headers['Content-Length'] = String(body.length);
    res.writeHead(r.status ?? 200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (r.stallAfter !== undefined) {
      res.write(body.subarray(0, r.stallAfter));
      return;
    }
    if (r.cutAfter !== undefined) {
      res.write(body.subarray(0, r.cutAfter), () => res.destroy());
      return;
    }
    res.end(body);
  }
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const addr = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (!addr || typeof addr === 'string') throw new Error('no address');
  return addr.port;
}
