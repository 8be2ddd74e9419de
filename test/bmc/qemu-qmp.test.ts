/**
 * The QMP client: against a scripted QMP server on a unix socket (ids, out-of-order replies, errors,
 * events, timeouts, aborts), and against a real QEMU (greeting, query-status, QMP error classes, STOP and
 * RESUME events).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QemuProcess } from '../../src/bmc/qemu/process.js';
import { connectQmp, QmpError, type QmpClient, type QmpEvent } from '../../src/bmc/qemu/qmp.js';

const GREETING = { QMP: { version: { qemu: { major: 7, minor: 2, micro: 22 }, package: 'test' }, capabilities: ['oob'] } };

let cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ingot-qmp-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A QMP server that greets, accepts qmp_capabilities and hands every other command to `handle`. */
async function scriptedServer(socketPath: string, handle: (command: { execute: string; arguments?: unknown; id: number }, socket: Socket) => void): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.write(`${JSON.stringify(GREETING)}\r\n`);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const command = JSON.parse(buffer.slice(0, nl)) as { execute: string; arguments?: unknown; id: number };
        buffer = buffer.slice(nl + 1);
        if (command.execute === 'qmp_capabilities') socket.write(`${JSON.stringify({ return: {}, id: command.id })}\r\n`);
        else handle(command, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return server;
}

async function connected(socketPath: string): Promise<QmpClient> {
  const client = await connectQmp(socketPath, { timeoutMs: 2000 });
  cleanups.push(() => client.close());
  return client;
}

describe('QMP client (scripted server)', () => {
  it('matches replies to commands by id, also out of order, and reports QMP errors with class and description', async () => {
    const sock = path.join(tempDir(), 'qmp.sock');
    const held: { id: number; socket: Socket }[] = [];
    await scriptedServer(sock, (command, socket) => {
      if (command.execute === 'slow') held.push({ id: command.id, socket });
      else if (command.execute === 'fast') {
        socket.write(`${JSON.stringify({ return: { which: 'fast' }, id: command.id })}\r\n`);
        for (const h of held.splice(0)) h.socket.write(`${JSON.stringify({ return: { which: 'slow' }, id: h.id })}\r\n`);
      } else socket.write(`${JSON.stringify({ error: { class: 'CommandNotFound', desc: `The command ${command.execute} has not been found` }, id: command.id })}\r\n`);
    });
    const client = await connected(sock);
    expect(client.greeting?.version.qemu.major).toBe(7);
    const slow = client.execute('slow');
    const fast = client.execute('fast');
    expect(await Promise.all([slow, fast])).toEqual([{ which: 'slow' }, { which: 'fast' }]);
    const err = await client.execute('bogus').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QmpError);
    expect(err).toMatchObject({ qmpClass: 'CommandNotFound', desc: 'The command bogus has not been found', code: 'DriverOperationError' });
  });

  it('passes events to listeners and sends arguments', async () => {
    const sock = path.join(tempDir(), 'qmp.sock');
    await scriptedServer(sock, (command, socket) => {
      socket.write(`${JSON.stringify({ event: 'STOP', data: {}, timestamp: { seconds: 1, microseconds: 2 } })}\r\n`);
      socket.write(`${JSON.stringify({ event: 'SHUTDOWN', data: { guest: true, reason: 'guest-shutdown' }, timestamp: { seconds: 1, microseconds: 3 } })}\r\n`);
      socket.write(`${JSON.stringify({ return: command.arguments, id: command.id })}\r\n`);
    });
    const client = await connected(sock);
    const events: QmpEvent[] = [];
    const off = client.onEvent((e) => events.push(e));
    expect(await client.execute('echo', { a: 1 })).toEqual({ a: 1 });
    expect(events.map((e) => e.event)).toEqual(['STOP', 'SHUTDOWN']);
    expect(events[1]?.data).toEqual({ guest: true, reason: 'guest-shutdown' });
    off();
    await client.execute('echo', { a: 2 });
    expect(events).toHaveLength(2);
  });

  it('gives up on a command after its timeout or abort, and fails pending commands when the connection closes', async () => {
    const sock = path.join(tempDir(), 'qmp.sock');
    let last: Socket | null = null;
    let received = 0;
    await scriptedServer(sock, (_command, socket) => {
      last = socket; // never answers
      received++;
    });
    const client = await connected(sock);
    await expect(client.execute('hang', undefined, { timeoutMs: 100 })).rejects.toThrow(/QMP hang timed out/);
    const controller = new AbortController();
    const aborted = client.execute('hang', undefined, { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toThrow(/QMP hang was aborted/);
    const pending = client.execute('hang');
    // Once the server has the third command, it hangs up.
    await vi.waitUntil(() => received === 3, { timeout: 5000 });
    (last as Socket | null)?.destroy();
    await expect(pending).rejects.toThrow(/connection closed/);
    expect(client.closed).toBe(true);
  });

  it('retries until the socket appears, and times out when nothing listens', async () => {
    const dir = tempDir();
    const sock = path.join(dir, 'late.sock');
    const later = new Promise<void>((resolve) => setTimeout(() => void scriptedServer(sock, () => undefined).then(() => resolve()), 200));
    const client = await connectQmp(sock, { timeoutMs: 3000 });
    cleanups.push(() => client.close());
    await later;
    expect(client.greeting).not.toBeNull();
    await expect(connectQmp(path.join(dir, 'never.sock'), { timeoutMs: 200 })).rejects.toThrow(/timed out/);
    await expect(connectQmp(path.join(dir, 'never.sock'), { retry: false })).rejects.toThrow(/ENOENT/);
  });
});

describe('QMP client (real QEMU)', () => {
  it('reads the status, reports QMP error classes and delivers STOP/RESUME events', { timeout: 30_000 }, async () => {
    try {
      execFileSync('qemu-system-x86_64', ['--version'], { stdio: 'pipe' });
    } catch (err) {
      throw new Error(`qemu-system-x86_64 is required: apt-get install qemu-system-x86 qemu-utils (${(err as Error).message})`);
    }
    const dir = tempDir();
    const qmpPath = path.join(dir, 'qmp.sock');
    const proc = await QemuProcess.start({
      binary: 'qemu-system-x86_64',
      args: ['-machine', 'pc', '-accel', 'tcg', '-nodefaults', '-display', 'none', '-m', '64', '-qmp', `unix:${qmpPath},server=on,wait=off`],
      logPath: path.join(dir, 'qemu.log'),
      qmpPath,
    });
    cleanups.push(async () => void (await proc.stop()));
    expect(proc.qmp.greeting?.version.qemu.major).toBeGreaterThanOrEqual(7);
    expect(await proc.qmp.execute('query-status')).toMatchObject({ status: 'running', running: true });
    await expect(proc.qmp.execute('no-such-command')).rejects.toMatchObject({ qmpClass: 'CommandNotFound' });
    await expect(proc.qmp.execute('qom-set', { path: '/machine/peripheral/none', property: 'bootindex', value: 1 })).rejects.toMatchObject({ qmpClass: 'DeviceNotFound' });
    const events: string[] = [];
    proc.qmp.onEvent((e) => events.push(e.event));
    await proc.qmp.execute('stop');
    expect(await proc.qmp.execute('query-status')).toMatchObject({ status: 'paused', running: false });
    await proc.qmp.execute('cont');
    await expect.poll(() => events, { timeout: 5000 }).toEqual(['STOP', 'RESUME']);
    const exit = await proc.stop();
    expect(exit.code).toBe(0);
    expect(proc.running).toBe(false);
  });
});
