import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRedfishDriverInfo } from './driver-info.js';
import { RedfishClientPool } from './pool.js';
import { HttpTransport, MAX_REDIRECTS } from './transport.js';

interface Seen {
  method: string;
  url: string;
  body: string;
  authorization: string | undefined;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server whose `routes` answer redirects (`[status, location]`) or 200 with what they saw. */
async function serve(routes: Record<string, [number, string]>): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', body, authorization: req.headers.authorization };
      seen.push(entry);
      const route = routes[entry.url];
      if (route) res.writeHead(route[0], { location: route[1] }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(entry));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function send(base: string, method: string, path: string, body?: string) {
  const t = new HttpTransport(base, true);
  return t.request({ method, url: new URL(path, base), headers: { authorization: 'Basic eDp5' }, ...(body ? { body } : {}), timeoutMs: 5000 }).finally(() => t.close());
}

describe('HttpTransport redirects', () => {
  it('follows a 307 within the origin, keeping the method, the body and the credentials', async () => {
    const { base, seen } = await serve({ '/redfish/v1/Systems/by-name/Actions/Reset': [307, '/redfish/v1/Systems/uuid-1/Actions/Reset'] });
    const res = await send(base, 'POST', '/redfish/v1/Systems/by-name/Actions/Reset', '{"ResetType":"On"}');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ method: 'POST', url: '/redfish/v1/Systems/uuid-1/Actions/Reset', body: '{"ResetType":"On"}', authorization: 'Basic eDp5' });
    expect(seen).toHaveLength(2);
  });

  it('follows 301, 302, 303 and 308 for a GET, to relative and absolute locations of the same origin', async () => {
    const routes: Record<string, [number, string]> = { '/a': [301, '/b'], '/c': [303, 'd'], '/d': [308, '/final'] };
    const { base, seen } = await serve(routes);
    routes['/b'] = [302, `${base}/c`];
    expect(await send(base, 'GET', '/a')).toMatchObject({ status: 200, body: { method: 'GET', url: '/final' } });
    expect(seen.map((s) => s.url)).toEqual(['/a', '/b', '/c', '/d', '/final']);
  });

  it('does not turn a POST or PATCH into a GET (301/302/303), nor leave the origin, nor loop for ever', async () => {
    const { base: other, seen: otherSeen } = await serve({});
    const { base, seen } = await serve({
      '/post': [302, '/elsewhere'], '/patch': [301, '/elsewhere'], '/away': [307, `${other}/stolen`], '/loop': [307, '/loop'],
    });
    expect((await send(base, 'POST', '/post', '{}')).status).toBe(302);
    expect((await send(base, 'PATCH', '/patch', '{}')).status).toBe(301);
    expect((await send(base, 'GET', '/away')).status).toBe(307);
    expect(otherSeen).toEqual([]);
    expect((await send(base, 'GET', '/loop')).status).toBe(307);
    expect(seen.filter((s) => s.url === '/loop')).toHaveLength(MAX_REDIRECTS + 1);
    expect(seen.some((s) => s.url === '/elsewhere')).toBe(false);
  });
});

describe('RedfishClient and redirects', () => {
  it('reads a system the BMC redirects to, and says why a redirect it does not follow was not followed', async () => {
    const { base: other } = await serve({});
    const { base } = await serve({ '/redfish/v1/Systems/alias': [307, '/redfish/v1/Systems/uuid-1'], '/redfish/v1/Systems/moved': [301, `${other}/redfish/v1/Systems/1`],
      '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset': [302, '/redfish/v1/Systems/1'],
    });
    const pool = new RedfishClientPool({ settings: { connection_attempts: 1 } });
    try {
      const client = pool.client(parseRedfishDriverInfo({ uuid: 'n1', driver_info: { redfish_address: base, redfish_auth_type: 'basic', redfish_username: 'x', redfish_password: 'y' } }));
      expect(await client.get('/redfish/v1/Systems/alias')).toMatchObject({ method: 'GET', url: '/redfish/v1/Systems/uuid-1' });
      await expect(client.get('/redfish/v1/Systems/moved')).rejects.toThrow(
        `answered 301 to GET /redfish/v1/Systems/moved (a redirect to ${other}/redfish/v1/Systems/1, another origin: not followed; set driver_info redfish_address to ${other})`,
      );
      await expect(client.post('/redfish/v1/Systems/1/Actions/ComputerSystem.Reset', { ResetType: 'On' })).rejects.toThrow(
        'answered 302 to POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset (a redirect to /redfish/v1/Systems/1 that would turn POST into GET: not followed)',
      );
    } finally {
      await pool.close();
    }
  });
});
