import { createHash, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../shared/seeded-random.js';
import { toNetascii } from './byte-source.js';
import { tftpGet, TftpClientError } from './client.js';
import { bufferFile, TftpError, type TftpRemote } from './files.js';
import { encodeError, encodeRequest } from './packet.js';
import { RawPeer } from './raw-peer.test-support.js';
import { createTftpServer, type TftpServer, type TftpServerOptions } from './server.js';
import type { TransferRecord } from './transfer.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir: string;
let root: string;
const files = new Map<string, Buffer>();
let servers: TftpServer[] = [];
let peers: RawPeer[] = [];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'ingot-tftp-server-')));
  root = path.join(dir, 'root');
  await mkdir(path.join(root, 'boot'), { recursive: true });
  for (const [name, size] of [['empty', 0], ['s511', 511], ['s512', 512], ['s513', 513], ['b1468x5', 1468 * 5], ['loss.bin', 80_000], ['boot/vmlinuz', 300_000]] as const) {
    const data = randomBytes(size);
    files.set(name, data);
    await writeFile(path.join(root, name), data);
  }
  // 65 536 blocks of 8 bytes and a bit: block numbers wrap past 65535.
  const wrap = randomBytes(8 * 65_536 + 100);
  files.set('wrap', wrap);
  await writeFile(path.join(root, 'wrap'), wrap);
  const text = Buffer.from('#!ipxe\nkernel vmlinuz\r\ninitrd initrd.img\rboot\n');
  files.set('text.cfg', text);
  await writeFile(path.join(root, 'text.cfg'), text);
  await writeFile(path.join(dir, 'secret'), 'outside the root');
  await symlink(path.join(dir, 'secret'), path.join(root, 'escape'));
  await symlink(path.join(root, 'boot', 'vmlinuz'), path.join(root, 'kernel'));
  await symlink(dir, path.join(root, 'outdir'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(peers.map((p) => p.close()));
  await Promise.all(servers.map((s) => s.close()));
  peers = [];
  servers = [];
});

async function serve(extra: Partial<TftpServerOptions> = {}): Promise<{ server: TftpServer; port: number; records: TransferRecord[] }> {
  const records: TransferRecord[] = [];
  const server = createTftpServer({ host: '127.0.0.1', port: 0, root, timeoutMs: 200, retries: 3, maxBlksize: 1468, maxWindowsize: 16, onTransfer: (r) => records.push(r), ...extra });
  servers.push(server);
  const { port } = await server.start();
  return { server, port, records };
}

async function peer(): Promise<RawPeer> {
  const p = await RawPeer.open();
  peers.push(p);
  return p;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('TFTP server: transfers', () => {
  it('serves over IPv6', async () => {
    const { port } = await serve({ host: '::1' });
    const r = await tftpGet({ host: '::1', port, file: 's513', blksize: 256, windowsize: 2 });
    expect(r.sha256).toBe(sha(files.get('s513') as Buffer));
  });

  it('binds port 0 and reports the bound port', async () => {
    const { server, port } = await serve();
    expect(port).toBeGreaterThan(0);
    expect(server.port).toBe(port);
  });

  it('serves files of every edge size byte for byte, lock-step and windowed, with and without options', async () => {
    const { port, records } = await serve();
    const cases = [
      {},
      { blksize: 512, tsize: true },
      { blksize: 1468, windowsize: 4 },
      { blksize: 1024, windowsize: 16, tsize: true, timeoutS: 2 },
    ];
    for (const name of ['empty', 's511', 's512', 's513', 'b1468x5', 'boot/vmlinuz']) {
      for (const c of cases) {
        const r = await tftpGet({ host: '127.0.0.1', port, file: name, ...c });
        const data = files.get(name) as Buffer;
        expect({ name, c, bytes: r.bytes, sha: r.sha256 }).toEqual({ name, c, bytes: data.length, sha: sha(data) });
        if (c.tsize) expect(r.oack.tsize).toBe(data.length > 0 ? String(data.length) : undefined);
      }
    }
    await until(() => records.length === 6 * cases.length);
    expect(records.filter((r) => r.outcome !== 'complete')).toEqual([]);
    const last = records.at(-1) as TransferRecord;
    expect(last).toMatchObject({ file: 'boot/vmlinuz', blksize: 1024, windowsize: 16, bytes: 300_000, requested: { blksize: '1024', windowsize: '16', tsize: '0', timeout: '2' } });
    expect(last.negotiated).toEqual({ blksize: '1024', tsize: '300000', timeout: '2', windowsize: '16' });
  });

  it('clamps blksize and windowsize to the configured maxima in the OACK', async () => {
    const { port, records } = await serve({ maxBlksize: 1024, maxWindowsize: 4 });
    const r = await tftpGet({ host: '127.0.0.1', port, file: 'boot/vmlinuz', blksize: 8192, windowsize: 64 });
    expect(r.oack).toEqual({ blksize: '1024', windowsize: '4' });
    expect(r.sha256).toBe(sha(files.get('boot/vmlinuz') as Buffer));
    await until(() => records.length === 1);
    expect(records[0]).toMatchObject({ blksize: 1024, windowsize: 4 });
  });

  it('wraps block numbers from 65535 to 0 and keeps going', async () => {
    const { port, records } = await serve();
    const data = files.get('wrap') as Buffer;
    const r = await tftpGet({ host: '127.0.0.1', port, file: 'wrap', blksize: 8, windowsize: 16 });
    expect(r.bytes).toBe(data.length);
    expect(r.sha256).toBe(sha(data));
    await until(() => records.length === 1);
    expect(records[0]).toMatchObject({ outcome: 'complete', bytes: data.length });
  });

  it('converts netascii on the fly and leaves tsize out of the OACK', async () => {
    const { port } = await serve();
    const chunks: Buffer[] = [];
    const r = await tftpGet({ host: '127.0.0.1', port, file: 'text.cfg', mode: 'netascii', tsize: true, blksize: 16, onData: (d) => chunks.push(Buffer.from(d)) });
    expect(Buffer.concat(chunks).toString('latin1')).toBe(toNetascii(files.get('text.cfg') as Buffer).toString('latin1'));
    expect(r.oack).toEqual({ blksize: '16' });
  });

  it('serves 20 transfers at once, each on its own port', async () => {
    const { port, records } = await serve();
    const names = ['boot/vmlinuz', 's513', 'b1468x5', 'kernel'];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => tftpGet({ host: '127.0.0.1', port, file: names[i % 4] as string, blksize: 1468, windowsize: i % 2 ? 8 : undefined })),
    );
    results.forEach((r, i) => {
      const name = names[i % 4] as string;
      expect(r.sha256).toBe(sha(files.get(name === 'kernel' ? 'boot/vmlinuz' : name) as Buffer));
    });
    await until(() => records.length === 20);
    expect(records.filter((r) => r.outcome !== 'complete')).toEqual([]);
  });
});

/** A UDP relay between one client and the server that drops packets (deterministic pseudo-random). */
async function lossyRelay(serverPort: number, dropRate: number, seed: number): Promise<{ port: number; dropped: () => number; close: () => Promise<void> }> {
  const front = createSocket('udp4');
  const back = createSocket('udp4');
  await Promise.all([new Promise<void>((r) => front.bind(0, '127.0.0.1', r)), new Promise<void>((r) => back.bind(0, '127.0.0.1', r))]);
  const random = seededRandom(seed);
  let client: number | undefined;
  let tid: number | undefined;
  let dropped = 0;
  const keep = (msg: Buffer) => {
    // Requests always pass; DATA and ACK are dropped at the rate.
    if (msg[1] === 1 || random() >= dropRate) return true;
    dropped++;
    return false;
  };
  front.on('message', (msg, r) => {
    client = r.port;
    if (keep(msg)) back.send(msg, msg[1] === 1 ? serverPort : (tid as number), '127.0.0.1');
  });
  back.on('message', (msg, r) => {
    tid = r.port;
    if (client !== undefined && keep(msg)) front.send(msg, client, '127.0.0.1');
  });
  return {
    port: front.address().port,
    dropped: () => dropped,
    close: async () => {
      await Promise.all([new Promise<void>((r) => front.close(() => r())), new Promise<void>((r) => back.close(() => r()))]);
    },
  };
}

describe('TFTP server: loss', () => {
  it('recovers from lost DATA and ACK packets, windowed and lock-step, and the file arrives whole', async () => {
    const { port, records } = await serve({ timeoutMs: 60, retries: 10 });
    const data = files.get('loss.bin') as Buffer;
    for (const [i, request] of [{ blksize: 512, windowsize: 8 }, { blksize: 1024 }, {}].entries()) {
      const relay = await lossyRelay(port, 0.05, 42 + i);
      try {
        // The client dallies after its final ACK (RFC 1350 §6), answering a repeated final block again.
        const r = await tftpGet({ host: '127.0.0.1', port: relay.port, file: 'loss.bin', ...request, retransmitMs: 100, retries: 20, dallyMs: 500 });
        expect(r.sha256).toBe(sha(data));
        expect(relay.dropped()).toBeGreaterThan(3);
      } finally {
        await relay.close();
      }
    }
    await until(() => records.length === 3);
    expect(records.map((r) => r.outcome)).toEqual(['complete', 'complete', 'complete']);
    expect(records.every((r) => r.retransmits > 0)).toBe(true);
  });
});

describe('TFTP server: the protocol, packet by packet', () => {
  it('starts an RFC 1350 transfer with DATA 1 from a new port when no option is asked for', async () => {
    const { port } = await serve();
    const p = await peer();
    p.send(encodeRequest('RRQ', 's513', 'octet'), port);
    const first = await p.expect();
    expect(first.port).not.toBe(port);
    expect(first.pkt).toMatchObject({ op: 'DATA', block: 1 });
    expect((first.pkt as { data: Buffer }).data.length).toBe(512);
    p.ack(1, first.port);
    const second = await p.expect();
    expect(second.pkt).toMatchObject({ op: 'DATA', block: 2 });
    expect((second.pkt as { data: Buffer }).data.length).toBe(1);
    expect(second.port).toBe(first.port);
  });

  it('sends a zero-length final block when the size is a multiple of the block size', async () => {
    const { port, records } = await serve();
    const p = await peer();
    p.send(encodeRequest('RRQ', 's512', 'octet'), port);
    const d1 = await p.expect();
    p.ack(1, d1.port);
    const d2 = await p.expect();
    expect(d2.pkt).toMatchObject({ op: 'DATA', block: 2, data: Buffer.alloc(0) });
    p.ack(2, d1.port);
    await until(() => records.length === 1);
    expect(records[0]).toMatchObject({ outcome: 'complete', bytes: 512 });
  });

  it('waits for ACK 0 after the OACK and resends the OACK on timeout', async () => {
    const { port } = await serve();
    const p = await peer();
    p.send(encodeRequest('RRQ', 's513', 'octet', [['tsize', '0'], ['blksize', '256'], ['x-unknown', '1']]), port);
    const o1 = await p.expect();
    expect(o1.pkt).toEqual({ op: 'OACK', options: [['tsize', '513'], ['blksize', '256']] });
    const o2 = await p.expect(1000);
    expect(o2.pkt.op).toBe('OACK');
    p.ack(0, o1.port);
    expect(await p.blocks(1)).toEqual([1]);
  });

  it('ends quietly when the client declines the OACK with ERROR 8, and serves its plain retry', async () => {
    const { port, records } = await serve();
    const p = await peer();
    p.send(encodeRequest('RRQ', 's513', 'octet', [['tsize', '0']]), port);
    const o = await p.expect();
    expect(o.pkt).toEqual({ op: 'OACK', options: [['tsize', '513']] });
    p.send(encodeError(8, 'tsize only'), o.port);
    await until(() => records.length === 1);
    expect(records[0]).toMatchObject({ outcome: 'options-refused', error: 'client sent ERROR 8: tsize only' });
    expect(await p.next(400)).toBeUndefined();
    const r = await tftpGet({ host: '127.0.0.1', port, file: 's513' });
    expect(r.sha256).toBe(sha(files.get('s513') as Buffer));
  });

  it('sends a window of blocks, and after an ACK inside it continues right after that block (RFC 7440)', async () => {
    const { port, records } = await serve();
    const p = await peer();
    p.send(encodeRequest('RRQ', 'boot/vmlinuz', 'octet', [['blksize', '1000'], ['windowsize', '4']]), port);
    const o = await p.expect();
    p.ack(0, o.port);
    expect(await p.blocks(4)).toEqual([1, 2, 3, 4]);
    p.ack(2, o.port); // 3 went missing
    expect(await p.blocks(4)).toEqual([3, 4, 5, 6]);
    p.ack(6, o.port);
    expect(await p.blocks(4)).toEqual([7, 8, 9, 10]);
    p.send(encodeError(0, 'enough'), o.port);
    await until(() => records.length === 1);
    expect(records[0]).toMatchObject({ outcome: 'client-error', retransmits: 2 });
  });

  it('never answers a duplicate ACK with data (no Sorcerer\'s Apprentice) and retransmits the whole window on timeout', async () => {
    const { port } = await serve({ timeoutMs: 300 });
    const p = await peer();
    p.send(encodeRequest('RRQ', 'boot/vmlinuz', 'octet', [['windowsize', '3']]), port);
    const o = await p.expect();
    p.ack(0, o.port);
    expect(await p.blocks(3)).toEqual([1, 2, 3]);
    p.ack(3, o.port);
    expect(await p.blocks(3)).toEqual([4, 5, 6]);
    p.ack(3, o.port);
    p.ack(3, o.port);
    p.ack(0, o.port);
    // Nothing but the timeout's retransmission of the window 4..6.
    const seen = await p.collect(200);
    expect(seen).toEqual([]);
    expect(await p.blocks(3, 1000)).toEqual([4, 5, 6]);
  });

  it('drops a client that stops ACKing after the retries and closes the transfer socket', async () => {
    const { server, port, records } = await serve({ timeoutMs: 100, retries: 2 });
    const p = await peer();
    p.send(encodeRequest('RRQ', 'boot/vmlinuz', 'octet', [['windowsize', '2']]), port);
    const o = await p.expect();
    p.ack(0, o.port);
    // The window, then 2 retransmissions of it, then nothing.
    const seen = await p.collect(700);
    expect(seen.map((r) => (r.pkt.op === 'DATA' ? r.pkt.block : r.pkt.op))).toEqual([1, 2, 1, 2, 1, 2]);
    await until(() => records.length === 1);
    expect(records[0]).toMatchObject({ outcome: 'timeout', bytes: 0, retransmits: 4 });
    expect(records[0]?.error).toMatch(/no answer after 2 retransmissions, waiting for the ACK of block 2 \(last acknowledged: 0\)/);
    expect(server.activeTransfers).toBe(0);
    // The TID port is closed: a packet to it draws ICMP port unreachable (ECONNREFUSED on a connected socket).
    const probe = await peer();
    await new Promise<void>((resolve) => probe.socket.connect(o.port, '127.0.0.1', resolve));
    probe.socket.send(Buffer.from([0, 4, 0, 1]));
    await until(() => probe.errors.length > 0, 2000);
    expect((probe.errors[0] as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('gives up on an OACK that is never acknowledged', async () => {
    const { port, records } = await serve({ timeoutMs: 50, retries: 1 });
    const p = await peer();
    p.send(encodeRequest('RRQ', 's511', 'octet', [['tsize', '0']]), port);
    await until(() => records.length === 1);
    expect(records[0]).toMatchObject({ outcome: 'timeout', error: expect.stringMatching(/the ACK of the OACK/) });
    expect((await p.collect(0)).map((r) => r.pkt.op)).toEqual(['OACK', 'OACK']);
  });

  it('serves one transfer for a request the client repeated', async () => {
    const { port, records } = await serve();
    const p = await peer();
    const rrq = encodeRequest('RRQ', 's511', 'octet');
    p.send(rrq, port);
    p.send(rrq, port);
    const d = await p.expect();
    p.ack(1, d.port);
    await until(() => records.length === 1);
    expect(await p.next(300)).toBeUndefined();
  });

  it('answers an unexpected opcode from the client with ERROR 4 and ends', async () => {
    const { port, records } = await serve();
    const p = await peer();
    p.send(encodeRequest('RRQ', 's513', 'octet'), port);
    const d = await p.expect();
    p.send(encodeRequest('WRQ', 'x', 'octet'), d.port);
    expect((await p.expect()).pkt).toMatchObject({ op: 'ERROR', code: 4 });
    await until(() => records.length === 1);
    expect(records[0]?.outcome).toBe('failed');
  });
});

describe('TFTP server: refusals', () => {
  async function refusal(filename: string, op: 'RRQ' | 'WRQ' = 'RRQ', mode = 'octet'): Promise<{ code: number; message: string }> {
    const { port } = await serve();
    const p = await peer();
    p.send(encodeRequest(op, filename, mode), port);
    const r = await p.expect();
    if (r.pkt.op !== 'ERROR') throw new Error(`expected ERROR, got ${r.pkt.op}`);
    return { code: r.pkt.code, message: r.pkt.message };
  }

  it('refuses write requests with ERROR 2', async () => {
    expect(await refusal('upload.bin', 'WRQ')).toEqual({ code: 2, message: 'Access violation: this TFTP server is read-only (write requests are refused)' });
  });

  it('answers ERROR 1 for a missing file, and takes absolute names relative to the root', async () => {
    expect(await refusal('nope.bin')).toEqual({ code: 1, message: 'File not found: nope.bin' });
    expect(await refusal('/etc/passwd')).toEqual({ code: 1, message: 'File not found: etc/passwd' });
    const { port } = await serve();
    const r = await tftpGet({ host: '127.0.0.1', port, file: '/boot/vmlinuz' });
    expect(r.sha256).toBe(sha(files.get('boot/vmlinuz') as Buffer));
  });

  it('refuses path escapes with ERROR 2', async () => {
    for (const name of ['../secret', 'boot/../../secret', '..\\secret', '/../secret']) {
      const r = await refusal(name);
      expect(r.code, name).toBe(2);
      expect(r.message).toMatch(/'\.\.' is not allowed/);
    }
    expect(await refusal('escape')).toEqual({ code: 2, message: 'Access violation: escape leads outside the TFTP root' });
    // A directory link that leaves the root, and the secret's own absolute path (taken relative to the root).
    expect(await refusal('outdir/secret')).toEqual({ code: 2, message: 'Access violation: outdir/secret leads outside the TFTP root' });
    expect(await refusal(`${dir}/secret`)).toEqual({ code: 1, message: `File not found: ${dir.replace(/^\//, '')}/secret` });
  });

  it('follows a symlink that stays inside the root', async () => {
    const { port } = await serve();
    const r = await tftpGet({ host: '127.0.0.1', port, file: 'kernel', blksize: 1468 });
    expect(r.sha256).toBe(sha(files.get('boot/vmlinuz') as Buffer));
  });

  it('answers a malformed request with ERROR 4 and ignores other junk on the request port', async () => {
    const { port } = await serve();
    const p = await peer();
    p.send(Buffer.from([0, 4, 0, 1]), port);
    p.send(Buffer.from('\x00\x09junk', 'latin1'), port);
    p.send(Buffer.from('\x00\x01no-mode', 'latin1'), port);
    const r = await p.expect();
    expect(r).toEqual({ port, pkt: { op: 'ERROR', code: 4, message: 'Illegal TFTP operation: Request without a NUL-terminated file name and mode' } });
    expect(await p.next(200)).toBeUndefined();
  });

  it('refuses modes other than octet and netascii with ERROR 4', async () => {
    expect(await refusal('s511', 'RRQ', 'mail')).toEqual({ code: 4, message: "Illegal TFTP operation: transfer mode 'mail' is not supported (use octet or netascii)" });
  });

  it('the client sees the server\'s message', async () => {
    const { port } = await serve();
    const err = await tftpGet({ host: '127.0.0.1', port, file: 'missing' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TftpClientError);
    expect(err).toMatchObject({ code: 1, message: 'server error 1: File not found: missing' });
  });
});

describe('TFTP server: the resolver hook', () => {
  it('renders files per request from the path and the client, before the root directory', async () => {
    const seen: { path: string; remote: TftpRemote }[] = [];
    const { port } = await serve({
      resolve: (p, remote) => {
        seen.push({ path: p, remote });
        const mac = /^pxelinux\.cfg\/01-((?:[0-9a-f]{2}-){5}[0-9a-f]{2})$/.exec(p)?.[1];
        if (mac) return bufferFile(`DEFAULT deploy\n# for ${mac.replaceAll('-', ':')}\n`);
        if (p === 'denied') throw new TftpError(2, 'Access violation: not for you');
        return null;
      },
    });
    const chunks: Buffer[] = [];
    await tftpGet({ host: '127.0.0.1', port, file: '/pxelinux.cfg/01-52-54-00-12-34-56', onData: (d) => chunks.push(Buffer.from(d)) });
    expect(Buffer.concat(chunks).toString()).toBe('DEFAULT deploy\n# for 52:54:00:12:34:56\n');
    expect(seen[0]).toMatchObject({ path: 'pxelinux.cfg/01-52-54-00-12-34-56', remote: { address: '127.0.0.1', family: 'IPv4' } });
    // null falls through to the root directory
    expect((await tftpGet({ host: '127.0.0.1', port, file: 's513' })).bytes).toBe(513);
    await expect(tftpGet({ host: '127.0.0.1', port, file: 'denied' })).rejects.toMatchObject({ code: 2, message: 'server error 2: Access violation: not for you' });
  });

  it('streams content of unknown size from a Readable (no tsize in the OACK)', async () => {
    const payload = randomBytes(100_000);
    const { port } = await serve({
      root: undefined,
      resolve: () => ({ size: undefined, open: () => Readable.from([payload.subarray(0, 30_000), payload.subarray(30_000)]) }),
    });
    const r = await tftpGet({ host: '127.0.0.1', port, file: 'generated', tsize: true, blksize: 1000, windowsize: 8 });
    expect(r.oack).toEqual({ blksize: '1000', windowsize: '8' });
    expect(r.sha256).toBe(sha(payload));
  });

  it('answers ERROR 0 when the resolver fails unexpectedly', async () => {
    const { port } = await serve({ resolve: () => Promise.reject(new Error('database down')) });
    await expect(tftpGet({ host: '127.0.0.1', port, file: 'x' })).rejects.toMatchObject({ code: 0, message: 'server error 0: Internal error on the server' });
  });
});

describe('TFTP server: lifecycle', () => {
  it('close() ends running transfers with ERROR 0 and closes their sockets', async () => {
    const { server, port, records } = await serve();
    const p = await peer();
    p.send(encodeRequest('RRQ', 'boot/vmlinuz', 'octet'), port);
    const d = await p.expect();
    expect(server.activeTransfers).toBe(1);
    await server.close();
    expect(server.activeTransfers).toBe(0);
    expect(records[0]).toMatchObject({ outcome: 'aborted', error: 'Server is shutting down' });
    // The retransmission of block 1 may arrive first; the last packet is the ERROR.
    const after = await p.collect(100);
    expect(after.at(-1)?.pkt).toEqual({ op: 'ERROR', code: 0, message: 'Server is shutting down' });
    expect(d.port).toBeGreaterThan(0);
    await server.close(); // idempotent
  });

  it('closes when its signal aborts: its port is free again', async () => {
    const ac = new AbortController();
    const { server, port } = await serve({ signal: ac.signal });
    ac.abort();
    // The close the abort began; closing again waits for it.
    await server.close();
    const again = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.bind(port, '127.0.0.1', () => resolve());
    });
    again.close();
  });

  it('refuses requests beyond maxTransfers with ERROR 0', async () => {
    const { port } = await serve({ maxTransfers: 1 });
    const a = await peer();
    const b = await peer();
    a.send(encodeRequest('RRQ', 'boot/vmlinuz', 'octet'), port);
    await a.expect();
    b.send(encodeRequest('RRQ', 's511', 'octet'), port);
    expect((await b.expect()).pkt).toEqual({ op: 'ERROR', code: 0, message: 'Server busy: too many transfers, try again' });
  });
});
