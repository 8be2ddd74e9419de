import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRedfishDriverInfo } from './driver-info.js';
import { RedfishClientPool } from './pool.js';
import type { RedfishSettings } from './settings.js';

/** Fast retries and polls so each test runs in milliseconds. */
const FAST: Partial<RedfishSettings> = { connection_attempts: 5, connection_retry_interval_ms: 10, max_retry_interval_ms: 40, task_poll_interval_ms: 5 };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function serve(setup: (app: FastifyInstance) => void, opts: { https?: { key: string; cert: string }; port?: number } = {}): Promise<{ url: string; port: number; app: FastifyInstance }> {
  const app = opts.https ? Fastify({ https: opts.https }) : Fastify();
  setup(app);
  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  cleanups.push(() => app.close());
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `${opts.https ? 'https' : 'http'}://127.0.0.1:${port}`, port, app };
}

function pool(settings: Partial<RedfishSettings> = {}): RedfishClientPool {
  const p = new RedfishClientPool({ settings: { ...FAST, ...settings } });
  cleanups.push(() => p.close());
  return p;
}

function clientOf(p: RedfishClientPool, driverInfo: Record<string, string | boolean>) {
  return p.client(parseRedfishDriverInfo({ uuid: 'n1', driver_info: driverInfo }));
}

/** A free loopback port (bound, then released). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const address = srv.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A Redfish-ish service with sessions: tokens can be revoked to simulate expiry. */
function sessionService(app: FastifyInstance, state: { logins: number; deleted: string[]; valid: Set<string>; basicSeen: number }, withSessions = true) {
  app.get('/redfish/v1/', async () => ({
    '@odata.id': '/redfish/v1/',
    Systems: { '@odata.id': '/redfish/v1/Systems' },
    ...(withSessions ? { SessionService: { '@odata.id': '/redfish/v1/SessionService' }, Links: { Sessions: { '@odata.id': '/redfish/v1/SessionService/Sessions' } } } : {}),
  }));
  if (withSessions) {
    app.post('/redfish/v1/SessionService/Sessions', async (req, reply) => {
      const body = req.body as { UserName?: string; Password?: string };
      if (body.UserName !== 'admin' || body.Password !== 'secret') return reply.code(401).send({ error: { message: 'Invalid credentials' } });
      state.logins += 1;
      const token = `tok-${state.logins}`;
      state.valid.add(token);
      return reply.code(201).header('x-auth-token', token).header('location', `/redfish/v1/SessionService/Sessions/${state.logins}`).send({ '@odata.id': `/redfish/v1/SessionService/Sessions/${state.logins}` });
    });
    app.delete('/redfish/v1/SessionService/Sessions/:id', async (req, reply) => {
      state.deleted.push((req.params as { id: string }).id);
      return reply.code(204).send();
    });
  }
  app.addHook('onRequest', async (req, reply) => {
    if (req.url === '/redfish/v1/' || req.url.startsWith('/redfish/v1/SessionService/Sessions') && req.method === 'POST') return;
    const token = req.headers['x-auth-token'];
    if (typeof token === 'string' && state.valid.has(token)) return;
    const basic = req.headers.authorization;
    if (basic === `Basic ${Buffer.from('admin:secret').toString('base64')}`) {
      state.basicSeen += 1;
      return;
    }
    return reply.code(401).send({ error: { code: 'Base.1.8.GeneralError', message: 'Authentication required' } });
  });
  app.get('/redfish/v1/Systems', async () => ({ Members: [{ '@odata.id': '/redfish/v1/Systems/1' }] }));
  app.get('/redfish/v1/Systems/1', async () => ({ '@odata.id': '/redfish/v1/Systems/1', PowerState: 'On' }));
}

describe('Redfish client: authentication', () => {
  it('logs in with a session, logs in again once after a 401, and deletes the session on close', async () => {
    const state = { logins: 0, deleted: [] as string[], valid: new Set<string>(), basicSeen: 0 };
    const { url } = await serve((app) => sessionService(app, state));
    const client = clientOf(pool(), { redfish_address: url, redfish_username: 'admin', redfish_password: 'secret' });
    expect((await client.get('/redfish/v1/Systems/1'))['PowerState']).toBe('On');
    expect(state.logins).toBe(1);
    state.valid.clear(); // the BMC expired the session
    expect(await client.systemPath()).toBe('/redfish/v1/Systems/1');
    expect(state.logins).toBe(2);
    expect(state.basicSeen).toBe(0);
    await client.close();
    expect(state.deleted).toEqual(['2']);
  });

  it('reports rejected credentials with the status and the BMC message', async () => {
    const state = { logins: 0, deleted: [] as string[], valid: new Set<string>(), basicSeen: 0 };
    const { url } = await serve((app) => sessionService(app, state));
    const client = clientOf(pool(), { redfish_address: url, redfish_username: 'admin', redfish_password: 'wrong', redfish_auth_type: 'session' });
    await expect(client.get('/redfish/v1/Systems/1')).rejects.toThrow(
      `Redfish BMC ${url} answered 401 to POST /redfish/v1/SessionService/Sessions (credentials rejected: check redfish_username and redfish_password): Invalid credentials`,
    );
  });

  it('auto falls back to basic authentication when the service has no SessionService', async () => {
    const state = { logins: 0, deleted: [] as string[], valid: new Set<string>(), basicSeen: 0 };
    const { url } = await serve((app) => sessionService(app, state, false));
    const client = clientOf(pool(), { redfish_address: url, redfish_username: 'admin', redfish_password: 'secret' });
    expect((await client.get('/redfish/v1/Systems/1'))['PowerState']).toBe('On');
    expect(state.basicSeen).toBe(1);
    expect(state.logins).toBe(0);
  });

  it('reuses one cached client per BMC and credentials', () => {
    const p = pool();
    const a = clientOf(p, { redfish_address: 'http://127.0.0.1:1', redfish_username: 'a', redfish_password: 'x' });
    expect(clientOf(p, { redfish_address: 'http://127.0.0.1:1', redfish_username: 'a', redfish_password: 'x' })).toBe(a);
    expect(clientOf(p, { redfish_address: 'http://127.0.0.1:1', redfish_username: 'a', redfish_password: 'y' })).not.toBe(a);
    expect(p.size).toBe(2);
  });

  it('retires the least recently used client beyond the cache size', () => {
    const p = new RedfishClientPool({ maxClients: 1 });
    cleanups.push(() => p.close());
    const a = clientOf(p, { redfish_address: 'http://127.0.0.1:1' });
    const b = clientOf(p, { redfish_address: 'http://127.0.0.1:2' });
    expect(a.closed).toBe(true);
    expect(b.closed).toBe(false);
    expect(p.size).toBe(1);
  });
});

describe('Redfish client: PATCH with ETag', () => {
  it('sends If-Match with the ETag it read, and on 412 reads again and retries once', async () => {
    let version = 1;
    const ifMatch: (string | undefined)[] = [];
    const { url } = await serve((app) => {
      app.get('/redfish/v1/Systems/1', async (_req, reply) => reply.header('etag', `"v${version}"`).send({ Boot: {} }));
      app.patch('/redfish/v1/Systems/1', async (req, reply) => {
        ifMatch.push(req.headers['if-match']);
        // Someone else changes the resource between our read and our first PATCH.
        if (ifMatch.length === 1) version += 1;
        if (req.headers['if-match'] !== `"v${version}"`) return reply.code(412).send({ error: { message: 'ETag mismatch' } });
        version += 1;
        return reply.code(204).send();
      });
    });
    const client = clientOf(pool(), { redfish_address: url, redfish_auth_type: 'basic' });
    const reply = await client.patch('/redfish/v1/Systems/1', { Boot: { BootSourceOverrideTarget: 'Pxe' } });
    expect(reply.status).toBe(204);
    expect(ifMatch).toEqual(['"v1"', '"v2"']);
  });

  it('gives up after a second 412 with the status in the message', async () => {
    const { url } = await serve((app) => {
      app.get('/redfish/v1/Systems/1', async (_req, reply) => reply.header('etag', 'W/"x"').send({}));
      app.patch('/redfish/v1/Systems/1', async (_req, reply) => reply.code(412).send({ error: { message: 'stale', '@Message.ExtendedInfo': [{ Message: 'The ETag did not match.' }] } }));
    });
    const client = clientOf(pool(), { redfish_address: url });
    await expect(client.patch('/redfish/v1/Systems/1', {})).rejects.toThrow(`Redfish BMC ${url} answered 412 to PATCH /redfish/v1/Systems/1: stale The ETag did not match.`);
  });
});

describe('Redfish client: task monitors', () => {
  it('follows a 202 task monitor until the task is done, honouring Retry-After', async () => {
    let polls = 0;
    const { url } = await serve((app) => {
      app.post('/redfish/v1/Systems/1/Actions/ComputerSystem.Reset', async (_req, reply) =>
        reply.code(202).header('location', '/redfish/v1/TaskService/TaskMonitors/7').header('retry-after', '0').send());
      app.get('/redfish/v1/TaskService/TaskMonitors/7', async (_req, reply) => {
        polls += 1;
        if (polls < 3) return reply.code(202).header('retry-after', '0').send({ TaskState: 'Running' });
        return reply.code(200).send({ '@odata.type': '#Task.v1_4_3.Task', TaskState: 'Completed', TaskStatus: 'OK' });
      });
    });
    const client = clientOf(pool(), { redfish_address: url });
    const reply = await client.post('/redfish/v1/Systems/1/Actions/ComputerSystem.Reset', { ResetType: 'On' });
    expect(polls).toBe(3);
    expect(reply.status).toBe(200);
    expect(reply.body?.['TaskState']).toBe('Completed');
  });

  it('fails with the task messages when the task ends in Exception, and at the deadline', async () => {
    const { url } = await serve((app) => {
      app.post('/fail', async (_req, reply) => reply.code(202).header('location', '/tm/fail').send());
      app.get('/tm/fail', async () => ({ TaskState: 'Exception', Messages: [{ Message: 'Image could not be mounted.' }] }));
      app.post('/slow', async (_req, reply) => reply.code(202).header('location', '/tm/slow').send());
      app.get('/tm/slow', async (_req, reply) => reply.code(202).send());
    });
    const client = clientOf(pool({ task_timeout_ms: 100 }), { redfish_address: url });
    await expect(client.post('/fail', {})).rejects.toThrow(`Redfish BMC ${url}: the task of POST /fail ended Exception: Image could not be mounted.`);
    await expect(client.post('/slow', {})).rejects.toThrow('did not finish within 0 s');
  });
});

describe('Redfish client: retries', () => {
  it('retries a 503 and then succeeds', async () => {
    let calls = 0;
    const { url } = await serve((app) => {
      app.get('/redfish/v1/Systems/1', async (_req, reply) => {
        calls += 1;
        return calls < 3 ? reply.code(503).send({ error: { message: 'busy' } }) : reply.send({ PowerState: 'Off' });
      });
    });
    const client = clientOf(pool(), { redfish_address: url });
    expect((await client.get('/redfish/v1/Systems/1'))['PowerState']).toBe('Off');
    expect(calls).toBe(3);
  });

  it('retries a refused connection until the BMC listens', async () => {
    const port = await freePort();
    // The BMC starts listening once the client was refused and waits to try again.
    let listening: Promise<unknown> | undefined;
    const refusals: string[] = [];
    const p = new RedfishClientPool({
      settings: { ...FAST, connection_retry_interval_ms: 40, max_retry_interval_ms: 200, connection_attempts: 6 },
      onRetry: (e) => {
        refusals.push(e.reason);
        listening ??= serve((app) => app.get('/redfish/v1/Systems/1', async () => ({ PowerState: 'On' })), { port });
      },
    });
    cleanups.push(() => p.close());
    const answer = await clientOf(p, { redfish_address: `http://127.0.0.1:${port}` }).get('/redfish/v1/Systems/1');
    expect(answer['PowerState']).toBe('On');
    expect(refusals[0]).toMatch(/ECONNREFUSED/);
  });

  it('gives up after the configured attempts with a clear message', async () => {
    let calls = 0;
    const { url } = await serve((app) => {
      app.post('/redfish/v1/Systems/1/Actions/ComputerSystem.Reset', async (_req, reply) => {
        calls += 1;
        return reply.code(500).send({ error: { code: 'Base.1.8.InternalError', message: 'The request failed due to an internal service error.', '@Message.ExtendedInfo': [{ Message: 'Power controller not responding.' }] } });
      });
    });
    const client = clientOf(pool({ connection_attempts: 3 }), { redfish_address: url });
    const err = await client.post('/redfish/v1/Systems/1/Actions/ComputerSystem.Reset', { ResetType: 'On' }).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(err).toMatchObject({ code: 'DriverOperationError', httpStatus: 500 });
    expect((err as Error).message).toBe(
      `Redfish BMC ${url} answered 500 to POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset: The request failed due to an internal service error. Power controller not responding. (gave up after 3 attempts)`,
    );

    const port = await freePort();
    const dead = clientOf(pool({ connection_attempts: 2 }), { redfish_address: `http://127.0.0.1:${port}` });
    await expect(dead.get('/redfish/v1/')).rejects.toThrow(`Redfish BMC http://127.0.0.1:${port} could not be reached for GET /redfish/v1/ after 2 attempts: ECONNREFUSED`);
  });

  it('echoes a short printable excerpt of a hostile error body, never all of it', async () => {
    const long = `Injected\r\n2026-01-01 INFO forged\u001b[2J ${'A'.repeat(100_000)}`;
    const { url } = await serve((app) => {
      app.get('/json', async (_req, reply) => reply.code(400).send({ error: { message: long, '@Message.ExtendedInfo': [{ Message: 'more' }] } }));
      app.get('/text', async (_req, reply) => reply.code(400).type('text/plain').send(long));
    });
    for (const p of ['/json', '/text']) {
      const err = (await clientOf(pool(), { redfish_address: url }).get(p).catch((e: unknown) => e)) as Error;
      const said = err.message.replace(`Redfish BMC ${url} answered 400 to GET ${p}: `, '');
      expect(said.startsWith('Injected 2026-01-01 INFO forged [2J AAA')).toBe(true);
      expect(said.length).toBeLessThanOrEqual(300);
      expect(said.endsWith('…')).toBe(true);
      // eslint-disable-next-line no-control-regex
      expect(err.message).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  it('does not retry a 400', async () => {
    let calls = 0;
    const { url } = await serve((app) => app.get('/x', async (_req, reply) => {
      calls += 1;
      return reply.code(400).send({ error: { message: 'bad' } });
    }));
    await expect(clientOf(pool(), { redfish_address: url }).get('/x')).rejects.toThrow(`answered 400 to GET /x: bad`);
    expect(calls).toBe(1);
  });

  it('stops waiting between retries when the task is abandoned', async () => {
    const { url } = await serve((app) => app.get('/x', async (_req, reply) => reply.code(503).send()));
    const ctrl = new AbortController();
    // The retry interval is longer than the test may take: only the abort can end the wait, which
    // comes once the client is told of its first retry and has begun to wait.
    const waits: number[] = [];
    const p = new RedfishClientPool({
      settings: { ...FAST, connection_retry_interval_ms: 3_600_000, max_retry_interval_ms: 3_600_000 },
      onRetry: (e) => {
        waits.push(e.delayMs);
        setImmediate(() => ctrl.abort(new Error('conductor stopping')));
      },
    });
    cleanups.push(() => p.close());
    await expect(clientOf(p, { redfish_address: url }).get('/x', ctrl.signal)).rejects.toThrow('conductor stopping');
    expect(waits).toEqual([3_600_000]);
  });
});

describe('Redfish client: concurrency', () => {
  it('never has more than the per-BMC limit of requests in flight, across clients of one BMC', async () => {
    let inFlight = 0;
    let peak = 0;
    const { url } = await serve((app) => app.get('/slow/:n', async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight -= 1;
      return { ok: true };
    }));
    const p = pool({ max_concurrent_requests_per_bmc: 3 });
    const a = clientOf(p, { redfish_address: url, redfish_username: 'a', redfish_auth_type: 'basic' });
    const b = clientOf(p, { redfish_address: url, redfish_username: 'b', redfish_auth_type: 'basic' });
    await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).get(`/slow/${i}`)));
    expect(peak).toBe(3);
  });
});

describe('Redfish client: TLS', () => {
  it('accepts a self-signed certificate with verify_ca False or its CA file, and rejects it with True', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec', curve: 'P-256', algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const { url } = await serve((app) => app.get('/redfish/v1/', async () => ({ RedfishVersion: '1.11.0' })), { https: { key: pems.private, cert: pems.cert } });
    const p = pool({ connection_attempts: 3 });

    expect((await clientOf(p, { redfish_address: url, redfish_verify_ca: 'False' }).get('/redfish/v1/'))['RedfishVersion']).toBe('1.11.0');
    expect((await clientOf(p, { redfish_address: url, redfish_verify_ca: false }).get('/redfish/v1/'))['RedfishVersion']).toBe('1.11.0');

    const dir = mkdtempSync(join(tmpdir(), 'ingot-redfish-ca-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'ca.pem'), pems.cert);
    expect((await clientOf(p, { redfish_address: url, redfish_verify_ca: join(dir, 'ca.pem') }).get('/redfish/v1/'))['RedfishVersion']).toBe('1.11.0');

    const strict = clientOf(p, { redfish_address: url, redfish_verify_ca: true });
    const err = await strict.get('/redfish/v1/').catch((e: unknown) => e);
    expect((err as Error).message).toMatch(new RegExp(`^Redfish BMC ${url}: TLS certificate verification failed \\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)`));
    expect((err as Error).message).toContain('redfish_verify_ca');
  });
});
