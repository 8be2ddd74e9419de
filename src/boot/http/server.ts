/**
 * The HTTP boot server: iPXE scripts, kernels, ramdisks and EFI loaders for network-booting machines.
 * An ordered list of routes answers first (the `boot.ipxe` dispatcher, per-MAC scripts rendered by a
 * hook); anything else is a file under the root, read-only, with single byte ranges (206/416), HEAD,
 * ETag and Last-Modified. Nothing outside the root is served: `..` segments are refused and a symlink
 * whose real path leaves the root is refused.
 */
import { createReadStream } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { constants } from 'node:fs';
import type { Logger } from '../../shared/logger.js';
import { renderBootDispatcher } from './boot-script.js';
import { parseRange } from './range.js';

/** A generated response. */
export interface RenderedFile {
  body: string | Buffer;
  contentType?: string;
}

/**
 * A route: gets the decoded, normalised request path (relative, `/`-separated, never `..`) and answers
 * with a generated file, or null to let the next route (and finally the root directory) answer.
 */
export type HttpBootRoute = (relPath: string, req: IncomingMessage) => RenderedFile | null | Promise<RenderedFile | null>;

export interface HttpBootServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Directory served. */
  root: string;
  /** Consulted in order before the root directory; default {@link defaultBootRoutes}. */
  routes?: readonly HttpBootRoute[];
  logger?: Logger;
  /** Aborting closes the server. */
  signal?: AbortSignal;
}

export interface HttpBootServer {
  /** Resolves once bound, with the port. */
  start(): Promise<{ port: number }>;
  /** Stops listening and drops open connections. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The routes of the `ipxe` interface: `boot.ipxe` (the dispatcher) and, when `scriptFor` is given,
 * `pxelinux.cfg/<aa-bb-cc-dd-ee-ff>` rendered from the node state (null falls through to the file the
 * boot interface wrote).
 */
export function defaultBootRoutes(scriptFor?: (mac: string) => Promise<string | null> | string | null): HttpBootRoute[] {
  const routes: HttpBootRoute[] = [(p) => (p === 'boot.ipxe' ? { body: renderBootDispatcher(), contentType: 'text/plain; charset=utf-8' } : null)];
  if (scriptFor) {
    routes.push(async (p) => {
      const m = /^pxelinux\.cfg\/((?:[0-9a-f]{2}-){5}[0-9a-f]{2})$/i.exec(p);
      if (!m?.[1]) return null;
      const script = await scriptFor(m[1].toLowerCase().replace(/-/g, ':'));
      return script === null ? null : { body: script, contentType: 'text/plain; charset=utf-8' };
    });
  }
  return routes;
}

/** An HTTP boot server (not started). */
export function createHttpBootServer(options: HttpBootServerOptions): HttpBootServer {
  const routes = options.routes ?? defaultBootRoutes();
  let server: Server | null = null;
  let realRoot: Promise<string> | null = null;
  let closing: Promise<void> | null = null;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Length': 0 }).end();
      return;
    }
    const rel = requestPath(req.url ?? '/');
    if (rel === null) {
      send(res, req, 400, 'bad request path\n');
      return;
    }
    if (rel === 'escape') {
      send(res, req, 403, 'forbidden\n');
      return;
    }
    for (const route of routes) {
      const out = await route(rel, req);
      if (out) {
        const body = typeof out.body === 'string' ? Buffer.from(out.body) : out.body;
        res.writeHead(200, { 'Content-Type': out.contentType ?? 'application/octet-stream', 'Content-Length': body.length, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
    }
    await serveFile(req, res, await (realRoot ??= realpath(options.root)), rel);
  };

  return {
    async start() {
      if (server) throw new Error('HTTP boot server already started');
      realRoot = realpath(options.root);
      await realRoot;
      const s = createServer((req, res) => {
        handle(req, res).catch((err: unknown) => {
          options.logger?.error({ err, url: req.url }, 'HTTP boot request failed');
          if (!res.headersSent) send(res, req, 500, 'internal error\n');
          else res.destroy();
        });
      });
      server = s;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(options.port, options.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      options.signal?.addEventListener('abort', () => void this.close(), { once: true });
      const port = (s.address() as AddressInfo).port;
      options.logger?.info({ host: options.host, port, root: options.root }, 'HTTP boot server listening');
      return { port };
    },
    close() {
      const s = server;
      if (!s) return Promise.resolve();
      closing ??= new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The relative path of a request URL; null when it cannot be decoded, `escape` when it climbs out. */
function requestPath(url: string): string | null | 'escape' {
  let pathname: string;
  try {
    // NOTE: `//grub.cfg` (a loader whose prefix is `/`) would parse as a protocol-relative URL; one slash it is.
    pathname = decodeURIComponent(new URL(url.replace(/^\/+/, '/'), 'http://boot.invalid').pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  // NOTE: the WHATWG URL parser already folds `/a/../b`; this check catches `%2e%2e` and `..\` that survive it.
  const segments = pathname.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return 'escape';
  return segments.join('/');
}

async function serveFile(req: IncomingMessage, res: ServerResponse, root: string, rel: string): Promise<void> {
  let real: string;
  try {
    real = await realpath(path.join(root, rel));
  } catch {
    send(res, req, 404, 'not found\n');
    return;
  }
  if (real !== root && !real.startsWith(root + path.sep)) {
    send(res, req, 403, 'forbidden\n');
    return;
  }
  let handle;
  try {
    // O_NOFOLLOW: the checked real path must not have become a symlink since.
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    send(res, req, 404, 'not found\n');
    return;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) {
      send(res, req, 404, 'not found\n');
      return;
    }
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    const lastModified = st.mtime.toUTCString();
    const common = { 'Accept-Ranges': 'bytes', ETag: etag, 'Last-Modified': lastModified };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, common).end();
      return;
    }
    const ifRange = req.headers['if-range'];
    const rangeHeader = ifRange === undefined || ifRange === etag || ifRange === lastModified ? req.headers.range : undefined;
    const range = parseRange(rangeHeader, st.size);
    if (range.kind === 'unsatisfiable') {
      res.writeHead(416, { ...common, 'Content-Range': `bytes */${st.size}`, 'Content-Length': 0 }).end();
      return;
    }
    const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, st.size - 1];
    const length = st.size === 0 ? 0 : end - start + 1;
    const headers: Record<string, string | number> = { ...common, 'Content-Type': 'application/octet-stream', 'Content-Length': length };
    if (range.kind === 'partial') headers['Content-Range'] = `bytes ${start}-${end}/${st.size}`;
    res.writeHead(range.kind === 'partial' ? 206 : 200, headers);
    if (req.method === 'HEAD' || length === 0) {
      res.end();
      return;
    }
    const stream = createReadStream('', { fd: handle, start, end, autoClose: true });
    handle = undefined; // the stream owns it now
    await new Promise<void>((resolve) => {
      stream.on('error', () => {
        res.destroy();
        resolve();
      });
      res.on('close', () => {
        stream.destroy();
        resolve();
      });
      stream.pipe(res);
    });
  } finally {
    await handle?.close();
  }
}

function send(res: ServerResponse, req: IncomingMessage, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}
