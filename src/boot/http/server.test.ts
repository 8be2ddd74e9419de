import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBootServer, defaultBootRoutes, type HttpBootServer } from './server.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(port: number, urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends a raw request line (node's client normalises paths; this does not). */
function raw(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(`${line}\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let out = '';
    s.on('data', (d) => (out += d.toString()));
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

describe('HTTP boot server (real sockets on 127.0.0.1)', () => {
  let dir: string;
  let root: string;
  let server: HttpBootServer;
  let port: number;
  const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ingot-httpboot-'));
    root = path.join(dir, 'root');
    await mkdir(path.join(root, 'node'), { recursive: true });
    await mkdir(path.join(root, 'pxelinux.cfg'), { recursive: true });
    await writeFile(path.join(root, 'node', 'deploy_kernel'), data);
    await writeFile(path.join(root, 'pxelinux.cfg', '52-54-00-aa-bb-02'), '#!ipxe\necho from file\n');
    await writeFile(path.join(dir, 'secret'), 'outside the root');
    await symlink(path.join(dir, 'secret'), path.join(root, 'escape'));
    await symlink(path.join(root, 'node', 'deploy_kernel'), path.join(root, 'inside'));
    await symlink(dir, path.join(root, 'outdir'));
    const scripts: Record<string, string> = { '52:54:00:aa:bb:01': '#!ipxe\necho rendered for 52:54:00:aa:bb:01\n' };
    server = createHttpBootServer({ host: '127.0.0.1', port: 0, root, routes: defaultBootRoutes((mac) => scripts[mac] ?? null) });
    ({ port } = await server.start());
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a whole file with length, ETag and Last-Modified', async () => {
    const r = await get(port, '/node/deploy_kernel');
    expect(r.status).toBe(200);
    expect(r.body.equals(data)).toBe(true);
    expect(r.headers['content-length']).toBe('1000');
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(r.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(String(r.headers['last-modified']))).not.toBeNaN();
    const again = await get(port, '/node/deploy_kernel', { 'If-None-Match': String(r.headers.etag) });
    expect(again.status).toBe(304);
    // A loader whose prefix is `/` asks for `//…`: still the file, not the root.
    const doubled = await get(port, '//node/deploy_kernel');
    expect(doubled.status).toBe(200);
    expect(doubled.body.equals(data)).toBe(true);
  });

  it('answers a byte range with 206 and exactly those bytes', async () => {
    const r = await get(port, '/node/deploy_kernel', { Range: 'bytes=100-199' });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe('bytes 100-199/1000');
    expect(r.headers['content-length']).toBe('100');
    expect(r.body.equals(data.subarray(100, 200))).toBe(true);
    const open = await get(port, '/node/deploy_kernel', { Range: 'bytes=990-' });
    expect(open.status).toBe(206);
    expect(open.body.equals(data.subarray(990))).toBe(true);
    const suffix = await get(port, '/node/deploy_kernel', { Range: 'bytes=-10' });
    expect(suffix.headers['content-range']).toBe('bytes 990-999/1000');
    expect(suffix.body.equals(data.subarray(990))).toBe(true);
    const past = await get(port, '/node/deploy_kernel', { Range: 'bytes=900-5000' });
    expect(past.headers['content-range']).toBe('bytes 900-999/1000');
  });

  it('answers 416 for a range past the end and ignores ranges it does not support', async () => {
    const r = await get(port, '/node/deploy_kernel', { Range: 'bytes=1000-1100' });
    expect(r.status).toBe(416);
    expect(r.headers['content-range']).toBe('bytes */1000');
    expect((await get(port, '/node/deploy_kernel', { Range: 'bytes=0-1,5-6' })).status).toBe(200);
    expect((await get(port, '/node/deploy_kernel', { Range: 'lines=1-2' })).status).toBe(200);
    expect((await get(port, '/node/deploy_kernel', { Range: 'bytes=0-1', 'If-Range': '"stale"' })).status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await get(port, '/node/deploy_kernel', {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe('1000');
    expect(r.body.length).toBe(0);
    const partial = await get(port, '/node/deploy_kernel', { Range: 'bytes=0-9' }, 'HEAD');
    expect(partial.status).toBe(206);
    expect(partial.headers['content-length']).toBe('10');
    expect((await get(port, '/node/deploy_kernel', {}, 'POST')).status).toBe(405);
  });

  it('refuses path escapes: dot-dot (also encoded), symlinks out of the root; follows symlinks inside', async () => {
    expect(await raw(port, 'GET /../secret HTTP/1.1')).toMatch(/^HTTP\/1\.1 404/);
    const encoded = await raw(port, 'GET /%2e%2e/secret HTTP/1.1');
    // The URL parser folds an encoded dot-dot at the start into the root: /secret, which the root lacks.
    expect(encoded).toMatch(/^HTTP\/1\.1 404/);
    expect(encoded).not.toContain('outside the root');
    expect(await raw(port, 'GET /node/..%5c..%5csecret HTTP/1.1')).toMatch(/^HTTP\/1\.1 403/);
    const link = await get(port, '/escape');
    expect(link.status).toBe(403);
    expect(link.body.toString()).not.toContain('outside the root');
    expect((await get(port, '/inside')).body.equals(data)).toBe(true);
    expect((await get(port, '/node')).status).toBe(404);
    expect((await get(port, '/missing')).status).toBe(404);
    expect((await get(port, '/%zz')).status).toBe(400);
  });

  it('serves nothing outside the root for absolute names, encoded climbs, NULs or directory links', async () => {
    const attempts = [
      'GET //etc/passwd HTTP/1.1', // absolute-looking: taken relative to the root
      `GET ${dir}/secret HTTP/1.1`, // the file's absolute path: relative to the root too
      'GET http://boot.invalid/../secret HTTP/1.1', // absolute-form request target
      'GET /node/%2e%2e/%2e%2e/secret HTTP/1.1',
      'GET /node/%2E%2E%2F%2E%2E%2Fsecret HTTP/1.1',
      'GET /outdir/secret HTTP/1.1', // a directory link that leaves the root
      'GET /node/deploy_kernel%00.txt HTTP/1.1',
    ];
    for (const line of attempts) {
      const answer = await raw(port, line);
      expect(answer, line).toMatch(/^HTTP\/1\.1 (400|403|404) /);
      expect(answer, line).not.toContain('outside the root');
      expect(answer, line).not.toContain('root:');
    }
    expect(await raw(port, 'GET /outdir/secret HTTP/1.1')).toMatch(/^HTTP\/1\.1 403/);
    expect(await raw(port, 'GET /node/deploy_kernel%00.txt HTTP/1.1')).toMatch(/^HTTP\/1\.1 400/);
    // The server still answers.
    expect((await get(port, '/node/deploy_kernel')).status).toBe(200);
  });

  it('renders boot.ipxe and the per-MAC script per request, falling back to the written file', async () => {
    const boot = await get(port, '/boot.ipxe');
    expect(boot.status).toBe(200);
    const lines = boot.body.toString().split('\n');
    expect(lines[0]).toBe('#!ipxe');
    expect(lines).toContain('chain pxelinux.cfg/${net${netid}/mac:hexhyp} || goto loop');
    expect(lines).toContain('chain pxelinux.cfg/${mac:hexhyp} || goto loop_done');
    expect(boot.headers['cache-control']).toBe('no-store');
    expect((await get(port, '/pxelinux.cfg/52-54-00-AA-BB-01')).body.toString()).toBe('#!ipxe\necho rendered for 52:54:00:aa:bb:01\n');
    expect((await get(port, '/pxelinux.cfg/52-54-00-aa-bb-02')).body.toString()).toBe('#!ipxe\necho from file\n');
    expect((await get(port, '/pxelinux.cfg/52-54-00-aa-bb-03')).status).toBe(404);
  });
});

describe('HTTP boot server lifecycle', () => {
  it('closes on abort and on close(), twice safely', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ingot-httpboot-'));
    const ac = new AbortController();
    const s = createHttpBootServer({ host: '127.0.0.1', port: 0, root: dir, signal: ac.signal });
    try {
      const { port } = await s.start();
      expect((await get(port, '/boot.ipxe')).status).toBe(200);
      ac.abort();
      await s.close();
      await s.close();
      await expect(get(port, '/boot.ipxe')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
