/**
 * A static file server on loopback for tests that deploy: each path answers its bytes with a
 * Last-Modified an hour old (so the conductor's image cache keeps what it fetched), HEAD answers the
 * headers, anything else 404; GETs are counted per path.
 */
import { listenHttp } from './http-server.js';

export interface FileServer {
  url: string;
  /** GET requests per path. */
  downloads: Map<string, number>;
  close(): Promise<void>;
}

export async function serveFiles(files: Readonly<Record<string, Buffer>>): Promise<FileServer> {
  const downloads = new Map<string, number>();
  const server = await listenHttp((req, res) => {
    const at = req.url ?? '/';
    if (req.method === 'GET') downloads.set(at, (downloads.get(at) ?? 0) + 1);
    const body = files[at];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length, 'last-modified': new Date(Date.now() - 3_600_000).toUTCString() });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return { url: server.url, downloads, close: server.close };
}
