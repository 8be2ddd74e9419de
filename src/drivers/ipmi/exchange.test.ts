import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exchange, ExchangeTimeout } from './exchange.js';
import { UdpEndpoint } from './udp-endpoint.js';

/** A UDP peer on 127.0.0.1 that answers datagram n (1-based) with `answer(n, datagram)` or stays silent. */
async function peer(answer: (n: number, d: Buffer) => Buffer | undefined): Promise<{ socket: Socket; port: number; received: Buffer[] }> {
  const socket = createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (msg, rinfo) => {
    received.push(msg);
    const reply = answer(received.length, msg);
    if (reply) socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return { socket, port: socket.address().port, received };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

function setup() {
  const endpoint = new UdpEndpoint();
  cleanups.push(() => endpoint.close());
  return endpoint;
}

describe('exchange', () => {
  it('retransmits, building a fresh packet each time, until an answer matches', async () => {
    const p = await peer((n, d) => (n === 3 ? Buffer.concat([Buffer.from('re:'), d]) : undefined));
    cleanups.push(() => new Promise((r) => p.socket.close(() => r())));
    const endpoint = setup();
    let retransmits = 0;
    const answer = await exchange(
      endpoint,
      { ip: '127.0.0.1', port: p.port },
      (n) => Buffer.from(`packet-${n}`),
      (d) => (d.toString().startsWith('re:') ? d.toString() : undefined),
      { deadline: Date.now() + 5000, initialTimeoutMs: 20, signal: new AbortController().signal, onRetransmit: () => retransmits++ },
    );
    expect(answer).toBe('re:packet-3');
    expect(p.received.map(String)).toEqual(['packet-1', 'packet-2', 'packet-3']);
    expect(retransmits).toBe(2);
  });

  it('ignores datagrams that do not match', async () => {
    const p = await peer((n) => Buffer.from(n === 1 ? 'noise' : 'answer'));
    cleanups.push(() => new Promise((r) => p.socket.close(() => r())));
    const got = await exchange(setup(), { ip: '127.0.0.1', port: p.port }, () => Buffer.from('q'), (d) => (String(d) === 'answer' ? 'ok' : undefined), {
      deadline: Date.now() + 5000, initialTimeoutMs: 20, signal: new AbortController().signal,
    });
    expect(got).toBe('ok');
  });

  it('times out at the deadline with the number of transmissions, doubling the wait between them', async () => {
    const p = await peer(() => undefined);
    cleanups.push(() => new Promise((r) => p.socket.close(() => r())));
    // On a virtual clock (the datagrams still go over real UDP): sends at 0, 20, 60 and 140 ms, then the
    // deadline at 200 ms ends it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = Date.now();
    const sentAt: number[] = [];
    const outcome = exchange(setup(), { ip: '127.0.0.1', port: p.port }, (n) => (sentAt.push(Date.now() - start), Buffer.from(`q${n}`)), () => undefined, {
      deadline: start + 200, initialTimeoutMs: 20, signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(200);
    const err = await outcome;
    expect(err).toBeInstanceOf(ExchangeTimeout);
    expect((err as ExchangeTimeout).sends).toBe(4);
    expect(sentAt).toEqual([0, 20, 60, 140]);
    vi.useRealTimers();
    await vi.waitUntil(() => p.received.length === 4, { timeout: 5000 });
    expect(p.received.map(String)).toEqual(['q1', 'q2', 'q3', 'q4']);
  });

  it('stops on abort with the signal reason', async () => {
    const p = await peer(() => undefined);
    cleanups.push(() => new Promise((r) => p.socket.close(() => r())));
    const ac = new AbortController();
    const pending = exchange(setup(), { ip: '127.0.0.1', port: p.port }, () => Buffer.from('q'), () => undefined, {
      deadline: Date.now() + 60_000, initialTimeoutMs: 1000, signal: ac.signal,
    });
    ac.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
