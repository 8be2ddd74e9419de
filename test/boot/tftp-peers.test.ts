/**
 * Ingot's TFTP server against real clients on loopback: Debian's `tftp` (tftp-hpa: RFC 1350 only, no
 * options) and `curl` (tsize, blksize and timeout options, or none with --tftp-no-options). Every
 * transfer is checked byte for byte (sha256). A missing client fails the test with the install hint.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTftpServer, type TftpServer } from '../../src/boot/tftp/server.js';
import type { TransferRecord } from '../../src/boot/tftp/transfer.js';

const TFTP = '/usr/bin/tftp';
const CURL = '/usr/bin/curl';
const INSTALL_HINT = 'apt-get install tftp-hpa curl';

/** Fails (never skips) when a real client is not installed. */
function requirePeers(): void {
  for (const bin of [TFTP, CURL]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing; install the real TFTP clients: ${INSTALL_HINT}`);
  }
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

/** Runs a client to completion with a hard time limit; `onSpawn` gets its PID. */
function run(cmd: string, args: string[], timeoutMs = 60_000, onSpawn?: (pid: number) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('spawn', () => onSpawn?.(child.pid as number));
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir: string;
let root: string;
let outDir: string;
const files = new Map<string, Buffer>();
let server: TftpServer;
let port: number;
let records: TransferRecord[] = [];
const stopped = new Set<number>();

/** 34 MiB and a bit: 69 633 blocks of 512 bytes, so block numbers wrap past 65535. */
const BIG = 'big.img';
const BIG_SIZE = 34 * 1024 * 1024 + 123;
const SMALL = ['empty', 's511', 's512', 's513', 'x512x4', 'x1468x3'];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'ingot-tftp-peers-')));
  root = path.join(dir, 'root');
  outDir = path.join(dir, 'out');
  await mkdir(path.join(root, 'pxelinux.cfg'), { recursive: true });
  await mkdir(outDir);
  const sizes: Record<string, number> = { empty: 0, s511: 511, s512: 512, s513: 513, x512x4: 512 * 4, x1468x3: 1468 * 3, 'kernel.bin': 300_000, [BIG]: BIG_SIZE };
  for (const [name, size] of Object.entries(sizes)) {
    const data = randomBytes(size);
    files.set(name, data);
    await writeFile(path.join(root, name), data);
  }
  const text = Buffer.from('DEFAULT deploy\nLABEL deploy\r\n  KERNEL vmlinuz\r  APPEND initrd=initrd.img\n'.repeat(40));
  files.set('pxelinux.cfg/default', text);
  await writeFile(path.join(root, 'pxelinux.cfg', 'default'), text);
  await writeFile(path.join(dir, 'secret'), 'not for TFTP clients');
  await symlink(path.join(dir, 'secret'), path.join(root, 'escape'));
  server = createTftpServer({ host: '127.0.0.1', port: 0, root, timeoutMs: 300, retries: 3, onTransfer: (r) => records.push(r) });
  ({ port } = await server.start());
});

afterEach(async () => {
  for (const pid of stopped) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  stopped.clear();
  await until(() => server.activeTransfers === 0, 10_000).catch(() => undefined);
  records = [];
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function tftpHpaGet(name: string, mode: 'binary' | 'ascii' = 'binary'): Promise<{ run: Run; data: Buffer }> {
  requirePeers();
  const local = path.join(outDir, `hpa-${name.replaceAll('/', '_')}-${mode}`);
  const r = await run(TFTP, ['127.0.0.1', String(port), '-m', mode, '-c', 'get', name, local], 120_000);
  return { run: r, data: await readFile(local).catch(() => Buffer.alloc(0)) };
}

async function curlGet(name: string, extra: string[] = [], tag = 'curl'): Promise<{ run: Run; data: Buffer }> {
  requirePeers();
  const local = path.join(outDir, `${tag}-${name.replaceAll('/', '_')}-${randomBytes(4).toString('hex')}`);
  const r = await run(CURL, ['-sS', '--max-time', '120', ...extra, '-o', local, `tftp://127.0.0.1:${port}/${name}`], 130_000);
  return { run: r, data: await readFile(local).catch(() => Buffer.alloc(0)) };
}

function expectSame(name: string, got: Buffer): void {
  const want = files.get(name) as Buffer;
  expect({ name, size: got.length, sha: sha(got) }).toEqual({ name, size: want.length, sha: sha(want) });
}

describe('TFTP server with real clients', () => {
  it('tftp-hpa (RFC 1350, no options) gets files of 0, 511, 512, 513, 4×512 and 3×1468 bytes byte for byte', async () => {
    for (const name of SMALL) {
      const { run: r, data } = await tftpHpaGet(name);
      expect(r.out, name).toBe('');
      expectSame(name, data);
    }
    await until(() => records.length === SMALL.length, 5000);
    expect(records.map((r) => [r.file, r.outcome, r.bytes, r.blksize, r.negotiated])).toEqual(SMALL.map((n) => [n, 'complete', files.get(n)?.length, 512, {}]));
  });

  it('curl (tsize, blksize 512, timeout) gets the same files, and the OACK answers the real size (none for an empty file)', async () => {
    for (const name of SMALL) {
      const { run: r, data } = await curlGet(name);
      expect(r.code, `${name}: ${r.out}`).toBe(0);
      expectSame(name, data);
    }
    await until(() => records.length === SMALL.length, 5000);
    for (const rec of records) {
      expect(rec.requested).toMatchObject({ tsize: '0', blksize: '512' });
      // An empty file goes without tsize: curl fails an OACK with tsize 0 (error 71).
      expect(rec.negotiated.tsize).toBe(rec.file === 'empty' ? undefined : String(files.get(rec.file)?.length));
      expect(rec.outcome).toBe('complete');
    }
  });

  it('curl --tftp-blksize 1468 gets a multiple of the block size (empty final block) and the rest', async () => {
    for (const name of [...SMALL, 'kernel.bin']) {
      const { run: r, data } = await curlGet(name, ['--tftp-blksize', '1468']);
      expect(r.code, `${name}: ${r.out}`).toBe(0);
      expectSame(name, data);
    }
    await until(() => records.length === SMALL.length + 1, 5000);
    expect(records.every((r) => r.blksize === 1468 && r.outcome === 'complete')).toBe(true);
  });

  it('curl --tftp-no-options gets files the RFC 1350 way', async () => {
    for (const name of ['s513', 'x512x4', 'kernel.bin']) {
      const { run: r, data } = await curlGet(name, ['--tftp-no-options']);
      expect(r.code, r.out).toBe(0);
      expectSame(name, data);
    }
    await until(() => records.length === 3, 5000);
    expect(records.every((r) => Object.keys(r.requested).length === 0 && r.blksize === 512)).toBe(true);
  });

  it('a 34 MiB file at blksize 512 (block numbers wrap past 65535) arrives whole, with tftp-hpa and with curl', async () => {
    const hpa = await tftpHpaGet(BIG);
    expect(hpa.run.out).toBe('');
    expectSame(BIG, hpa.data);
    const curl = await curlGet(BIG);
    expect(curl.run.code, curl.run.out).toBe(0);
    expectSame(BIG, curl.data);
    await until(() => records.length === 2, 5000);
    expect(records.map((r) => [r.outcome, r.bytes, r.blksize])).toEqual([
      ['complete', BIG_SIZE, 512],
      ['complete', BIG_SIZE, 512],
    ]);
  }, 300_000);

  it('tftp-hpa in netascii mode gets a text file back as it was (CR LF and CR NUL on the wire)', async () => {
    const { run: r, data } = await tftpHpaGet('pxelinux.cfg/default', 'ascii');
    expect(r.out).toBe('');
    expect(data.toString('latin1')).toBe((files.get('pxelinux.cfg/default') as Buffer).toString('latin1'));
    await until(() => records.length === 1, 5000);
    const text = files.get('pxelinux.cfg/default') as Buffer;
    const lineEnds = [...text].filter((b) => b === 0x0a || b === 0x0d).length;
    // Every CR and LF took one more byte on the wire.
    expect(records[0]).toMatchObject({ mode: 'netascii', outcome: 'complete', bytes: text.length + lineEnds });
  });

  it('refuses path escapes with ERROR 2 (tftp-hpa and curl --path-as-is), and finds no /etc/passwd under the root', async () => {
    for (const name of ['../secret', 'pxelinux.cfg/../../secret', 'escape']) {
      const { run: r, data } = await tftpHpaGet(name);
      expect(r.out, name).toMatch(/Error code 2: Access violation/);
      expect(data.length).toBe(0);
    }
    const curl = await curlGet('../secret', ['--path-as-is']);
    expect(curl.run.code, curl.run.out).toBe(69); // CURLE_TFTP_PERM
    const abs = await tftpHpaGet('/etc/passwd');
    expect(abs.run.out).toMatch(/Error code 1: File not found: etc\/passwd/);
    await until(() => records.length === 5, 5000);
    expect(records.map((r) => r.outcome)).toEqual(['refused', 'refused', 'refused', 'refused', 'refused']);
    expect(records[2]?.error).toBe('Access violation: escape leads outside the TFTP root');
  });

  it('answers a missing file with ERROR 1 (tftp-hpa prints it, curl exits 68)', async () => {
    const hpa = await tftpHpaGet('no/such/file');
    expect(hpa.run.out).toMatch(/Error code 1: File not found: no\/such\/file/);
    const curl = await curlGet('no-such-file');
    expect(curl.run.code, curl.run.out).toBe(68); // CURLE_TFTP_NOTFOUND
  });

  it('refuses uploads (WRQ) with ERROR 2: tftp-hpa put and curl -T', async () => {
    requirePeers();
    const src = path.join(root, 's513');
    const hpa = await run(TFTP, ['127.0.0.1', String(port), '-m', 'binary', '-c', 'put', src, 'uploaded.bin']);
    expect(hpa.out).toMatch(/Error code 2: Access violation: this TFTP server is read-only/);
    const curl = await run(CURL, ['-sS', '--max-time', '20', '-T', src, `tftp://127.0.0.1:${port}/uploaded.bin`]);
    expect(curl.code, curl.out).toBe(69);
    expect(existsSync(path.join(root, 'uploaded.bin'))).toBe(false);
  });

  it('drops a client that stops ACKing (tftp-hpa frozen mid-transfer) after the retries and closes its socket', async () => {
    requirePeers();
    let pid = 0;
    const local = path.join(outDir, 'frozen');
    const running = run(TFTP, ['127.0.0.1', String(port), '-m', 'binary', '-c', 'get', BIG, local], 120_000, (p) => (pid = p));
    await until(() => pid > 0 && server.activeTransfers === 1 && existsSync(local), 10_000);
    // Well into the transfer: some data written by the client.
    for (let i = 0; i < 200 && (await stat(local)).size < 256 * 1024; i++) await new Promise((r) => setTimeout(r, 10));
    stopped.add(pid);
    process.kill(pid, 'SIGSTOP');
    // 300 ms timeout, 3 retries: the server gives up on its own, the client still frozen.
    await until(() => records.length === 1, 10_000);
    const rec = records[0] as TransferRecord;
    expect(rec).toMatchObject({ file: BIG, outcome: 'timeout' });
    expect(rec.error).toMatch(/no answer after 3 retransmissions/);
    expect(rec.bytes).toBeGreaterThan(0);
    expect(rec.bytes).toBeLessThan(BIG_SIZE);
    expect(server.activeTransfers).toBe(0);
    // Its port is closed: a datagram to it draws ICMP port unreachable.
    const probe = createSocket('udp4');
    try {
      const refused = new Promise<string>((resolve) => probe.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? '')));
      await new Promise<void>((resolve) => probe.connect(rec.local_port, '127.0.0.1', resolve));
      probe.send(Buffer.from([0, 4, 0, 1]));
      expect(await Promise.race([refused, new Promise((r) => setTimeout(() => r('no error'), 2000))])).toBe('ECONNREFUSED');
    } finally {
      probe.close();
    }
    process.kill(pid, 'SIGKILL');
    process.kill(pid, 'SIGCONT');
    const end = await running;
    expect(end.signal).toBe('SIGKILL');
    expect((await stat(local)).size).toBeLessThan(BIG_SIZE);
  }, 60_000);

  it('serves 20 curl transfers at once, each whole', async () => {
    const names = ['kernel.bin', 's513', 'x1468x3', 'pxelinux.cfg/default', 'x512x4'];
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => curlGet(names[i % names.length] as string, i % 2 ? ['--tftp-blksize', '1468'] : [], `par${i}`)),
    );
    runs.forEach(({ run: r, data }, i) => {
      expect(r.code, r.out).toBe(0);
      expectSame(names[i % names.length] as string, data);
    });
    await until(() => records.length === 20, 10_000);
    expect(records.filter((r) => r.outcome !== 'complete')).toEqual([]);
    expect(new Set(records.map((r) => r.local_port)).size).toBe(20);
  }, 120_000);
});
