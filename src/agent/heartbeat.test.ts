import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it, expect } from 'vitest';
import { lookupNode, startHeartbeats } from './heartbeat.js';
import { IronicClient, errorText } from './ironic-client.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((r) => { s.close(() => r()); s.closeAllConnections(); });
});

async function api(handler: (req: http.IncomingMessage, n: number) => [number, unknown]): Promise<string> {
  let n = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200).end(JSON.stringify({ default_version: { version: '1.50' } }));
    const [status, body] = handler(req, ++n);
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(body === undefined ? undefined : JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const found = { node: { uuid: 'n1', properties: {}, instance_info: {}, driver_internal_info: {} }, config: { heartbeat_timeout: 300 } };

describe('lookupNode', () => {
  it('retries errors and pauses after 409s, then returns the node', async () => {
    const seen: number[] = [];
    const url = await api((_req, n) => (seen.push(Date.now()), n === 1 ? [500, {}] : n === 2 ? [409, { error_message: '{"faultstring": "locked"}' }] : [200, found]));
    const logs: string[] = [];
    const start = Date.now();
    const answer = await lookupNode(new IronicClient({ apiUrl: url }), { addresses: ['52:54:00:00:00:01'], timeoutMs: 10_000, intervalMs: 20, conflictPausesMs: [150], log: (m) => logs.push(m) });
    expect(answer.node.uuid).toBe('n1');
    expect(seen).toHaveLength(3);
    expect(Date.now() - start).toBeGreaterThanOrEqual(150);
    expect(logs.join('\n')).toContain('the node is locked (Error 409: locked)');
  });

  it('gives up after its timeout naming the last reason, and takes the old API form', async () => {
    const url = await api(() => [404, { error_message: '{"faultstring": "Node not found"}' }]);
    await expect(lookupNode(new IronicClient({ apiUrl: url }), { addresses: ['m'], timeoutMs: 300, intervalMs: 50 })).rejects.toThrow(/within 0 s: Error 404: Node not found/);
    const old = await api(() => [200, { node: { uuid: 'n2' }, heartbeat_timeout: 60 }]);
    expect((await lookupNode(new IronicClient({ apiUrl: old }), { addresses: ['m'], timeoutMs: 1000, intervalMs: 10 })).config.heartbeat_timeout).toBe(60);
  });
});

describe('startHeartbeats', () => {
  it('leaves out fields newer than the server, and retries sooner after a 409', async () => {
    const bodies: { at: number; body: Record<string, unknown> }[] = [];
    const url = await api((req, n) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => bodies.push({ at: Date.now(), body: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown> }));
      return n === 1 ? [409, { error_message: '{"faultstring": "locked"}'}] : [202, undefined];
    });
    const hb = startHeartbeats(new IronicClient({ apiUrl: url }), { nodeUuid: 'n1', heartbeatTimeoutS: 300, minIntervalMs: 100, body: () => ({ callback_url: 'http://a:9999', agent_token: 't', agent_version: '1' }) });
    const end = Date.now() + 3000;
    while (hb.sent() < 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    await hb.stop();
    expect(hb.sent()).toBe(1);
    // API 1.50 knows agent_version (1.36) but not agent_token (1.62).
    expect(bodies[0]?.body).toEqual({ callback_url: 'http://a:9999', agent_version: '1' });
    const gap = bodies[1]!.at - bodies[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(90);
    expect(gap).toBeLessThan(1000);
  });
});

describe('errorText', () => {
  it('reads Ironic error bodies', () => {
    expect(errorText(404, Buffer.from('{"error_message": "{\\"faultstring\\": \\"gone\\"}"}'))).toBe('Error 404: gone');
    expect(errorText(500, Buffer.from('plain'))).toBe('Error 500: plain');
  });
});
