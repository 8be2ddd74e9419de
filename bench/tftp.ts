/**
 * `node dist/bench/tftp.js`: read throughput of Ingot's TFTP server next to tftpd-hpa (`in.tftpd`) and
 * dnsmasq's TFTP server, over loopback, with one measuring client for all three: Ingot's own TFTP
 * client (src/boot/tftp/client.ts), which speaks blksize, tsize and windowsize (curl and tftp-hpa do
 * not do windowsize). Each server runs as its own child process; the rounds alternate between them.
 *
 * A 50 MiB file is fetched in three ways: windowsize 16 with blksize 1468 (the headline; a server that
 * does not acknowledge windowsize answers lock-step, which the table shows), lock-step with blksize
 * 1468, and plain RFC 1350 (512-byte blocks, no options). Every transfer is checked by sha256.
 * Goal: Ingot ≥ 1.0× tftpd-hpa on the headline.
 *
 * Options: --size-mib 50, --runs 3, --no-dnsmasq, --json FILE.
 * Needs (as root, for the chroot of in.tftpd and port 69 of dnsmasq): apt-get install tftpd-hpa dnsmasq-base.
 * Internal: --serve ROOT --port N runs Ingot's TFTP server (the child process measured).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tftpGet, type TftpGetOptions } from '../src/boot/tftp/client.js';
import { createTftpServer } from '../src/boot/tftp/server.js';
import { median } from './http-load.js';

const { values: opts } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '50' },
    runs: { type: 'string', default: '3' },
    'no-dnsmasq': { type: 'boolean', default: false },
    json: { type: 'string' },
    serve: { type: 'string' },
    port: { type: 'string' },
  },
});

const IN_TFTPD = '/usr/sbin/in.tftpd';
const DNSMASQ = '/usr/sbin/dnsmasq';
const FILE = 'bench.img';

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `--serve`: Ingot's TFTP server alone in this process, until SIGTERM. */
async function serveMode(root: string, port: number): Promise<void> {
  const server = createTftpServer({ host: '127.0.0.1', port, root, maxBlksize: 1468, maxWindowsize: 64 });
  const bound = await server.start();
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  log(`ingot tftp listening on 127.0.0.1:${bound.port}`);
}

/** A server process of the comparison, stopped by its PID. */
interface Daemon {
  name: string;
  host: string;
  port: number;
  proc: ChildProcess;
  output(): string;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

function startDaemon(name: string, cmd: string, args: string[], host: string, port: number): Daemon {
  const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString('utf8')).slice(-4000));
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  return { name, host, port, proc, output: () => out };
}

async function stopDaemon(d: Daemon): Promise<void> {
  const { proc } = d;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(t);
}

/** Waits (bounded) until the server answers a read of a small file. */
async function ready(d: Daemon): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (d.proc.exitCode !== null) throw new Error(`${d.name} exited (${d.proc.exitCode}): ${d.output()}`);
    try {
      await tftpGet({ host: d.host, port: d.port, file: 'ready', retransmitMs: 200, retries: 2 });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${d.name} did not answer: ${err instanceof Error ? err.message : String(err)}\n${d.output()}`);
    }
  }
}

/** A free UDP port on loopback. */
function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createSocket('udp4');
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Writes SIZE random bytes (1 MiB at a time); returns their sha256. */
async function makeFile(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const fh = await open(file, 'w', 0o644);
  try {
    for (let left = size; left > 0; ) {
      const chunk = randomBytes(Math.min(left, 1 << 20));
      hash.update(chunk);
      await fh.write(chunk);
      left -= chunk.length;
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

interface Mode {
  name: string;
  request: Pick<TftpGetOptions, 'blksize' | 'windowsize' | 'tsize'>;
}

const MODES: Mode[] = [
  { name: 'windowsize 16, blksize 1468', request: { blksize: 1468, windowsize: 16, tsize: true } },
  { name: 'lock-step, blksize 1468', request: { blksize: 1468, tsize: true } },
  { name: 'RFC 1350 (512, no options)', request: {} },
];

interface Cell {
  mode: string;
  server: string;
  mibPerS: number[];
  /** What the server granted: windowsize/blksize from its OACK. */
  windowsize: number;
  blksize: number;
}

async function main(): Promise<void> {
  const sizeMiB = Number(opts['size-mib']);
  const runs = Number(opts.runs);
  const missing = [IN_TFTPD, ...(opts['no-dnsmasq'] ? [] : [DNSMASQ])].filter((b) => !existsSync(b));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: apt-get install tftpd-hpa dnsmasq-base (or pass --no-dnsmasq)`);

  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-bench-tftp-'));
  const root = path.join(dir, 'root');
  const daemons: Daemon[] = [];
  try {
    // in.tftpd and dnsmasq drop to an unprivileged user: the tree must be readable by others.
    await chmod(dir, 0o755);
    await mkdir(root, { mode: 0o755 });
    await chmod(root, 0o755);
    await writeFile(path.join(root, 'ready'), 'ok\n', { mode: 0o644 });
    const size = sizeMiB * 1024 * 1024;
    const expected = await makeFile(path.join(root, FILE), size);

    const ingotPort = await freeUdpPort();
    const self = fileURLToPath(import.meta.url);
    const ingot = startDaemon('Ingot', process.execPath, [self, '--serve', root, '--port', String(ingotPort)], '127.0.0.1', ingotPort);
    daemons.push(ingot);
    const hpaPort = await freeUdpPort();
    // -L: stay in the foreground; -s: chroot into the root; -a: the address to listen on.
    daemons.push(startDaemon('tftpd-hpa', IN_TFTPD, ['-L', '-s', root, '-a', `127.0.0.1:${hpaPort}`], '127.0.0.1', hpaPort));
    if (!opts['no-dnsmasq']) {
      // NOTE: dnsmasq 2.90 has no option for its TFTP port (always 69), so it gets an address of its own
      // in 127.0.0.0/8 (all of it is loopback on Linux) and cannot collide with a TFTP server on 127.0.0.1.
      const host = `127.0.${69 + Math.floor(Math.random() * 100)}.${1 + Math.floor(Math.random() * 250)}`;
      daemons.push(
        startDaemon(
          'dnsmasq',
          DNSMASQ,
          ['--keep-in-foreground', '--conf-file=/dev/null', '--port=0', '--enable-tftp', `--tftp-root=${root}`, `--listen-address=${host}`, '--bind-interfaces', '--pid-file=', '--log-facility=-', '--quiet-tftp'],
          host,
          69,
        ),
      );
    }
    for (const d of [...daemons]) {
      try {
        await ready(d);
      } catch (err) {
        if (d.name !== 'dnsmasq') throw err;
        log(`dnsmasq left out: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        await stopDaemon(d);
        daemons.splice(daemons.indexOf(d), 1);
      }
    }
    log(`TFTP read of a ${sizeMiB} MiB file over loopback, ${runs} runs each (median MiB/s, min–max), client: Ingot's TFTP client`);

    const cells: Cell[] = [];
    for (const mode of MODES) {
      const row = daemons.map((d) => ({ mode: mode.name, server: d.name, mibPerS: [] as number[], windowsize: 1, blksize: 512 }));
      for (let run = 0; run < runs; run++) {
        for (const [i, d] of daemons.entries()) {
          const r = await tftpGet({ host: d.host, port: d.port, file: FILE, ...mode.request, retransmitMs: 1000, retries: 5 });
          if (r.sha256 !== expected || r.bytes !== size) throw new Error(`${d.name} (${mode.name}): got ${r.bytes} bytes, sha256 ${r.sha256}, want ${size} / ${expected}`);
          const cell = row[i] as Cell;
          cell.mibPerS.push(sizeMiB / (r.durationMs / 1000));
          cell.windowsize = r.windowsize;
          cell.blksize = r.blksize;
        }
      }
      cells.push(...row);
    }

    const pad = (s: string, n: number) => s.padEnd(n);
    log('');
    log(`${pad('mode', 30)}${pad('server', 12)}${pad('granted', 20)}${pad('MiB/s', 24)}vs tftpd-hpa`);
    for (const c of cells) {
      const hpa = cells.find((x) => x.mode === c.mode && x.server === 'tftpd-hpa') as Cell;
      const ratio = median(c.mibPerS) / median(hpa.mibPerS);
      const range = `${median(c.mibPerS).toFixed(1)} (${Math.min(...c.mibPerS).toFixed(1)}–${Math.max(...c.mibPerS).toFixed(1)})`;
      log(`${pad(c.mode, 30)}${pad(c.server, 12)}${pad(`w ${c.windowsize}, blk ${c.blksize}`, 20)}${pad(range, 24)}${ratio.toFixed(2)}×`);
    }
    const head = (server: string) => median((cells.find((c) => c.mode === MODES[0]?.name && c.server === server) as Cell).mibPerS);
    const headline = head('Ingot') / head('tftpd-hpa');
    log('');
    log(`headline (${MODES[0]?.name}): Ingot ${headline.toFixed(2)}× tftpd-hpa (goal >= 1.0×: ${headline >= 1 ? 'met' : 'NOT met'})`);
    if (opts.json) {
      const figures = cells.map((c) => ({ mode: c.mode, server: c.server, windowsize: c.windowsize, blksize: c.blksize, mib_per_s_median: median(c.mibPerS), mib_per_s: c.mibPerS }));
      await writeFile(opts.json, `${JSON.stringify({ at: new Date().toISOString(), size_mib: sizeMiB, runs, headline_ratio: headline, figures }, null, 2)}\n`);
    }
  } finally {
    await Promise.all(daemons.map((d) => stopDaemon(d)));
    await rm(dir, { recursive: true, force: true });
  }
}

if (opts.serve !== undefined) {
  serveMode(opts.serve, Number(opts.port ?? 0)).catch((err: unknown) => {
    process.stderr.write(`tftp server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
