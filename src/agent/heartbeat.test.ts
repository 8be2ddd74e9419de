import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it, expect, vi } from 'vitest';
import type { LookupResponse } from '../protocol/agent/lookup.js';
import { lookupNode, startHeartbeats } from './heartbeat.js';
import { IronicClient, errorText, type LookupAttempt } from './ironic-client.js';

const servers: http.Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const s of servers.splice(0)) await new Promise<void>((r) => { s.close(() => r()); s.closeAllConnections(); });
});

/** A hand-written Ironic client answering from lists, counting calls (for the virtual-clock tests). */
function scriptedClient(lookups: LookupAttempt[], heartbeats: (Error | null)[]) {
  const calls = { lookups: 0, heartbeats: 0 };
  const client = {
    apiUrl: 'http://ironic.test',
    lookupOnce: async () => lookups[Math.min(calls.lookups++, lookups.length - 1)] as LookupAttempt,
    heartbeat: async () => {
      const outcome = heartbeats[Math.min(calls.heartbeats++, heartbeats.length - 1)];
      if (outcome) throw outcome;
    },
  };
  return { client: client as unknown as IronicClient, calls };
}

/** Moves the virtual clock by `ms`, running what comes due (and the promises it settles). */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

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
    let n = 0;
    const url = await api(() => (++n === 1 ? [500, {}] : n === 2 ? [409, { error_message: '{"faultstring": "locked"}' }] : [200, found]));
    const logs: string[] = [];
    const answer = await lookupNode(new IronicClient({ apiUrl: url }), { addresses: ['52:54:00:00:00:01'], timeoutMs: 10_000, intervalMs: 20, conflictPausesMs: [150], log: (m) => logs.push(m) });
    expect(answer.node.uuid).toBe('n1');
    expect(n).toBe(3);
    expect(logs.join('\n')).toContain('the node is locked (Error 409: locked); waiting 0.15 s');
  });

  it('paces its attempts: the interval after an error, the conflict pause on top of it after a 409', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const answer = { node: { uuid: 'n1' }, config: { heartbeat_timeout: 300 } } as unknown as LookupResponse;
    const { client, calls } = scriptedClient([{ kind: 'retry', reason: 'HTTP 500' }, { kind: 'conflict', reason: 'locked' }, { kind: 'found', answer }], []);
    let found: LookupResponse | undefined;
    void lookupNode(client, { addresses: ['m'], timeoutMs: 10_000, intervalMs: 20, conflictPausesMs: [150] }).then((a) => (found = a));
    await advance(0);
    expect(calls.lookups).toBe(1);
    // After the first failure: the interval, 20 ms.
    await advance(19);
    expect(calls.lookups).toBe(1);
    await advance(1);
    expect(calls.lookups).toBe(2);
    // After the 409: the pause of 150 ms, then a wait drawn from [20, 40] ms.
    await advance(169);
    expect(calls.lookups).toBe(2);
    await advance(21);
    expect(calls.lookups).toBe(3);
    expect(found).toBe(answer);
  });

  it('gives up after its timeout naming the last reason, and takes the old API form', async () => {
    const url = await api(() => [404, { error_message: '{"faultstring": "Node not found"}' }]);
    await expect(lookupNode(new IronicClient({ apiUrl: url }), { addresses: ['m'], timeoutMs: 300, intervalMs: 50 })).rejects.toThrow(/within 0 s: Error 404: Node not found/);
    const old = await api(() => [200, { node: { uuid: 'n2' }, heartbeat_timeout: 60 }]);
    expect((await lookupNode(new IronicClient({ apiUrl: old }), { addresses: ['m'], timeoutMs: 1000, intervalMs: 10 })).config.heartbeat_timeout).toBe(60);
  });
});

describe('startHeartbeats', () => {
  it('leaves out fields newer than the server, and tries again after a 409', async () => {
    const bodies: Record<string, unknown>[] = [];
    const url = await api((req, n) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => bodies.push(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>));
      return n === 1 ? [409, { error_message: '{"faultstring": "locked"}'}] : [202, undefined];
    });
    let sent!: () => void;
    const accepted = new Promise<void>((resolve) => (sent = resolve));
    const outcomes: (string | null)[] = [];
    const hb = startHeartbeats(new IronicClient({ apiUrl: url }), {
      nodeUuid: 'n1', heartbeatTimeoutS: 300, minIntervalMs: 100, body: () => ({ callback_url: 'http://a:9999', agent_token: 't', agent_version: '1' }),
      onHeartbeat: (ok, error) => {
        outcomes.push(error);
        if (ok) sent();
      },
    });
    await accepted;
    await hb.stop();
    expect(hb.sent()).toBe(1);
    expect(outcomes).toEqual([expect.stringContaining('409'), null]);
    // API 1.50 knows agent_version (1.36) but not agent_token (1.62).
    expect(bodies).toEqual([{ callback_url: 'http://a:9999', agent_version: '1' }, { callback_url: 'http://a:9999', agent_version: '1' }]);
  });

  it('paces heartbeats: soon again after a failure, then every 0.3–0.6 × heartbeat_timeout, forced no sooner than the minimum', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, calls } = scriptedClient([], [new Error('Error 409: locked'), null]);
    const hb = startHeartbeats(client, { nodeUuid: 'n1', heartbeatTimeoutS: 300, minIntervalMs: 100, body: () => ({ callback_url: 'http://a:9999' }) });
    await advance(0);
    expect(calls.heartbeats).toBe(1);
    // After the failure: again within 1–2 × the minimum interval (100–200 ms).
    await advance(99);
    expect(calls.heartbeats).toBe(1);
    await advance(101);
    expect(calls.heartbeats).toBe(2);
    // After a success: not before 0.3 × 300 s.
    await advance(89_000);
    expect(calls.heartbeats).toBe(2);
    // A forced heartbeat goes at once when the last one is older than the minimum...
    hb.force();
    await advance(0);
    expect(calls.heartbeats).toBe(3);
    // ...and waits for the minimum when it is not.
    hb.force();
    await advance(99);
    expect(calls.heartbeats).toBe(3);
    await advance(1);
    expect(calls.heartbeats).toBe(4);
    await hb.stop();
  });
});

describe('errorText', () => {
  it('reads Ironic error bodies', () => {
    expect(errorText(404, Buffer.from('{"error_message": "{\\"faultstring\\": \\"gone\\"}"}'))).toBe('Error 404: gone');
    expect(errorText(500, Buffer.from('plain'))).toBe('Error 500: plain');
  });
});
