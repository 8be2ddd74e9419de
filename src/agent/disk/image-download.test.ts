import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { listenHttp } from '../../../test/support/http-server.js';
import { downloadImage, type BodySink } from './image-download.js';

const MIB = 1024 * 1024;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The URL of a server for `handler` (over TLS with `tls`), closed after the test. */
async function serve(handler: http.RequestListener, tls?: { key: string; cert: string }): Promise<string> {
  const served = await listenHttp(handler, tls);
  closers.push(served.close);
  return served.url;
}

/** A sink that keeps everything, taking at most `limit` bytes per call and every other call none at all. */
function collector(limit = Infinity) {
  const parts: Buffer[] = [];
  let calls = 0;
  let readyCalls = 0;
  const sink: BodySink = {
    take(data) {
      calls++;
      if (limit !== Infinity && calls % 2 === 0) return 0;
      const n = Math.min(limit, data.length);
      parts.push(Buffer.from(data.subarray(0, n)));
      return n;
    },
    ready: () => {
      readyCalls++;
      return new Promise((resolve) => setTimeout(resolve, 1));
    },
  };
  return { sink, body: () => Buffer.concat(parts), readyCalls: () => readyCalls };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('downloadImage', () => {
  it('hands a Content-Length body to the sink byte for byte, and sends the given headers', async () => {
    const image = randomBytes(5 * MIB + 3);
    let auth: string | undefined;
    const url = await serve((req, res) => {
      auth = req.headers.authorization;
      res.writeHead(200, { 'content-length': image.length });
      res.end(image);
    });
    const c = collector();
    const heads: (number | null)[] = [];
    const r = await downloadImage(`${url}/img.raw?x=1`, { sink: c.sink, headers: { Authorization: 'Basic dTpw' }, onHead: (n) => void heads.push(n) });
    expect(r).toEqual({ status: 200, url: `${url}/img.raw?x=1`, bytes: image.length, declared: image.length });
    expect(sha(c.body())).toBe(sha(image));
    expect(heads).toEqual([image.length]);
    expect(auth).toBe('Basic dTpw');
  });

  it('pauses while the sink is full and delivers every byte exactly once', async () => {
    const image = randomBytes(3 * MIB);
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': image.length });
      res.end(image);
    });
    const c = collector(10_000);
    const r = await downloadImage(`${url}/img`, { sink: c.sink });
    expect(r).toMatchObject({ status: 200, bytes: image.length });
    expect(c.body().equals(image)).toBe(true);
    expect(c.readyCalls()).toBeGreaterThan(10);
  });

  it('decodes a chunked body with extensions and trailers, and a body that ends with the connection', async () => {
    const parts = [randomBytes(1), randomBytes(70_000), randomBytes(3 * MIB), randomBytes(17)];
    const whole = Buffer.concat(parts);
    const url = await serve((req, res) => {
      if (req.url === '/close') {
        // No length, not chunked: HTTP/1.0 style, the body ends when the connection does.
        res.socket?.write('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n');
        res.socket?.end(whole);
        return;
      }
      res.socket?.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      for (const p of parts) res.socket?.write(Buffer.concat([Buffer.from(`${p.length.toString(16)};ext=1\r\n`), p, Buffer.from('\r\n')]));
      res.socket?.write('0\r\nX-Trailer: yes\r\n\r\n');
    });
    const chunked = collector(50_000);
    const heads: (number | null)[] = [];
    expect(await downloadImage(`${url}/chunked`, { sink: chunked.sink, onHead: (n) => void heads.push(n) })).toMatchObject({ status: 200, bytes: whole.length, declared: null });
    expect(chunked.body().equals(whole)).toBe(true);
    expect(heads).toEqual([null]);
    const closed = collector();
    expect(await downloadImage(`${url}/close`, { sink: closed.sink })).toMatchObject({ status: 200, bytes: whole.length, declared: null });
    expect(closed.body().equals(whole)).toBe(true);
  });

  it('follows redirects (at most 5) and returns other answers with the start of their body', async () => {
    const url = await serve((req, res) => {
      const m = /^\/hop(\d+)$/.exec(req.url ?? '');
      if (m) {
        res.writeHead(302, { location: `/hop${Number(m[1]) + 1}` });
        res.end();
      } else if (req.url === '/moved') {
        res.writeHead(301, { location: '/final' });
        res.end('moved');
      } else if (req.url === '/final') {
        res.writeHead(200, { 'content-length': 5 });
        res.end('image');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`no such image ${req.url}`);
      }
    });
    const c = collector();
    expect(await downloadImage(`${url}/moved`, { sink: c.sink })).toMatchObject({ status: 200, url: `${url}/final`, bytes: 5 });
    expect(c.body().toString()).toBe('image');
    expect(await downloadImage(`${url}/missing`, { sink: c.sink })).toEqual({ status: 404, url: `${url}/missing`, text: 'no such image /missing' });
    expect(await downloadImage(`${url}/hop0`, { sink: c.sink })).toMatchObject({ status: 302, url: `${url}/hop5` });
  });

  it('fails when the body ends before its Content-Length, when the server stalls, and when aborted', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/short') {
        res.writeHead(200, { 'content-length': 10 * MIB });
        res.write(randomBytes(MIB), () => res.destroy());
      } else {
        res.writeHead(200, { 'content-length': 10 * MIB });
        res.write(randomBytes(1000)); // then nothing
      }
    });
    await expect(downloadImage(`${url}/short`, { sink: collector().sink })).rejects.toThrow(/closed the connection after \d+ bytes of the body/);
    await expect(downloadImage(`${url}/stall`, { sink: collector().sink, timeoutMs: 200 })).rejects.toThrow(/no data from 127\.0\.0\.1:\d+ for 200 ms/);
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('stopped by the test')), 50);
    await expect(downloadImage(`${url}/stall`, { sink: collector().sink, signal: ac.signal })).rejects.toThrow('stopped by the test');
  });

  it('stops with the error thrown by onHead (nothing reaches the sink) or by the sink', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 2 * MIB });
      res.end(randomBytes(2 * MIB));
    });
    const c = collector();
    await expect(
      downloadImage(`${url}/big`, {
        sink: c.sink,
        onHead: (n) => {
          throw new Error(`too large: ${n}`);
        },
      }),
    ).rejects.toThrow(`too large: ${2 * MIB}`);
    expect(c.body().length).toBe(0);
    let seen = 0;
    const failing: BodySink = {
      take(data) {
        seen += data.length;
        if (seen > MIB) throw new Error('disk full');
        return data.length;
      },
      ready: async () => undefined,
    };
    await expect(downloadImage(`${url}/big`, { sink: failing })).rejects.toThrow('disk full');
  });

  it('downloads over TLS with insecure, and refuses an unverified certificate without it', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const image = randomBytes(2 * MIB + 1);
    const url = await serve(
      (_req, res) => {
        res.writeHead(200, { 'content-length': image.length });
        res.end(image);
      },
      { key: pems.private, cert: pems.cert },
    );
    const c = collector(100_000);
    expect(await downloadImage(`${url}/img`, { sink: c.sink, insecure: true })).toMatchObject({ status: 200, bytes: image.length });
    expect(c.body().equals(image)).toBe(true);
    await expect(downloadImage(`${url}/img`, { sink: collector().sink })).rejects.toThrow(/self.signed|certificate/i);
  });
});
