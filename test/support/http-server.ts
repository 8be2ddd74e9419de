/**
 * Small HTTP servers for tests that play a peer (an Ironic API for the agent, an image server): one on a
 * free loopback port, the request body as text, a JSON answer.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** A started server and how to stop it. */
export interface Served {
  /** `http://127.0.0.1:<port>` (https with `tls`), without a trailing slash. */
  url: string;
  /** Stops listening and ends open connections; resolves when the server is closed. */
  close(): Promise<void>;
}

/** Serves `handler` on a free port of 127.0.0.1, over TLS with `tls`. */
export async function listenHttp(handler: http.RequestListener, tls?: { key: string; cert: string }): Promise<Served> {
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The whole request body as UTF-8 text. */
export function readText(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answers `status` with `doc` as JSON (no body when `doc` is undefined). */
export function sendJson(res: http.ServerResponse, status: number, doc?: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(doc === undefined ? undefined : JSON.stringify(doc));
}
