import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it, expect } from 'vitest';
import { IngotError } from '../shared/errors.js';
import { postInspection } from './inspect.js';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: unknown;
}

const servers: http.Server[] = [];

/** A callback server answering with `answers` in turn (the last one repeats). */
async function callbackServer(answers: { status: number; body: string }[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const a = answers[Math.min(seen.length - 1, answers.length - 1)] as { status: number; body: string };
      res.writeHead(a.status, { 'Content-Type': 'application/json' }).end(a.body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/continue_inspection`, seen };
}

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

const fast = { initialDelayMs: 10, maxDelayMs: 40 };

describe('postInspection', () => {
  it('retries 5xx answers and returns the first success with its JSON body', async () => {
    const { url, seen } = await callbackServer([
      { status: 503, body: '{"error":"busy"}' },
      { status: 500, body: '' },
      { status: 202, body: '{"uuid":"1be26c0b-03f2-4d2e-ae87-c02d7f33c123"}' },
    ]);
    const retries: string[] = [];
    const answer = await postInspection(url, { inventory: { hostname: 'x' } }, { totalTimeoutMs: 10_000, ...fast, onRetry: (_a, reason) => retries.push(reason) });
    expect(answer).toEqual({ status: 202, body: { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' }, attempts: 3 });
    expect(seen).toHaveLength(3);
    expect(seen[0]).toEqual({ method: 'POST', url: '/v1/continue_inspection', contentType: 'application/json', body: { inventory: { hostname: 'x' } } });
    expect(retries[0]).toMatch(/^HTTP 503/);
  });

  it('retries 409 (the node is locked while the conductor readies it)', async () => {
    const { url, seen } = await callbackServer([
      { status: 409, body: '{"error_message":"Node is locked"}' },
      { status: 202, body: '{"uuid":"u"}' },
    ]);
    const answer = await postInspection(url, {}, { totalTimeoutMs: 5000, ...fast });
    expect(answer).toMatchObject({ status: 202, attempts: 2 });
    expect(seen).toHaveLength(2);
  });

  it('does not retry another 4xx answer', async () => {
    const { url, seen } = await callbackServer([{ status: 400, body: '{"error":"bad inventory"}' }]);
    const err = await postInspection(url, {}, { totalTimeoutMs: 10_000, ...fast }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngotError);
    expect((err as IngotError).code).toBe('DriverOperationError');
    expect((err as IngotError).message).toMatch(/refused the data: HTTP 400 .*bad inventory/);
    expect(seen).toHaveLength(1);
  });

  it('retries connection errors and gives up when the next wait would end after the total time', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1/continue`;
    const waits: number[] = [];
    const err = await postInspection(url, {}, { totalTimeoutMs: 400, ...fast, onRetry: (_a, _why, delay) => waits.push(delay) }).catch((e: unknown) => e);
    expect((err as IngotError).code).toBe('DriverOperationError');
    // One attempt more than waits: the last failure is the one it gives up on.
    expect((err as Error).message).toMatch(new RegExp(`failed after ${waits.length + 1} attempt\\(s\\).*ECONNREFUSED`));
    expect(waits.length).toBeGreaterThanOrEqual(2);
    // The waits it took fit in the total time; each is its step (doubling up to the cap) less a jitter of up to half.
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(400);
    waits.forEach((w, i) => {
      const step = Math.min(fast.maxDelayMs, fast.initialDelayMs * 2 ** i);
      expect(w).toBeGreaterThanOrEqual(step / 2);
      expect(w).toBeLessThanOrEqual(step);
    });
  });

  it('stops waiting when the signal aborts', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1/continue`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 100);
    const err = await postInspection(url, {}, { totalTimeoutMs: 60_000, initialDelayMs: 5_000, signal: controller.signal }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('stop');
  });
});
