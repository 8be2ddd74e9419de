/**
 * Ingot's TFTP server: read-only, for PXE clients fetching bootloaders, configs, kernels and ramdisks.
 * Requests arrive on one port (69); each read is served from its own ephemeral socket (RFC 1350 §4),
 * so transfers run side by side. Files come from a resolver hook (generated content) and then from a
 * root directory; option negotiation, windows and retransmission live in {@link ReadTransfer}.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { realpath } from 'node:fs/promises';
import { isIPv6 } from 'node:net';
import type { Readable } from 'node:stream';
import type { TftpConfig } from '../../config/tftp.js';
import type { Logger } from '../../shared/logger.js';
import { netasciiSource, readerSource, streamSource, type ByteSource } from './byte-source.js';
import { normaliseTftpPath, rootResolver, TftpError, type TftpFile, type TftpReader, type TftpRemote, type TftpResolver } from './files.js';
import { negotiate } from './options.js';
import { decodePacket, encodeError, ERROR_CODE, type TftpRequest } from './packet.js';
import { ReadTransfer, type TransferRecord } from './transfer.js';

/** Options of {@link createTftpServer}. */
export interface TftpServerOptions {
  /** Address to listen on (default `0.0.0.0`; `::` for IPv6 and IPv4). */
  host?: string;
  /** UDP port (default 69; 0 picks a free one, see {@link TftpServer.port}). */
  port?: number;
  /** Directory whose files are served; without it only `resolve` serves. */
  root?: string;
  /** Consulted before `root` for every request (see {@link TftpResolver}). */
  resolve?: TftpResolver;
  /** Largest blksize granted (default 1468: a 1500-byte MTU less the IPv4, UDP and TFTP headers). */
  maxBlksize?: number;
  /** Largest windowsize granted (default 64). */
  maxWindowsize?: number;
  /** Retransmission timeout when the client does not negotiate one, in ms (default 1000). */
  timeoutMs?: number;
  /** Retransmissions of one window (or OACK) before a silent client's transfer is dropped (default 5). */
  retries?: number;
  /** Transfers at once; a request beyond is answered ERROR 0 (default 1000). */
  maxTransfers?: number;
  /** Where transfers are logged (one info line each); silent without it. */
  logger?: Logger;
  /** Called with the record of every ended transfer (metrics, tests). */
  onTransfer?: (record: TransferRecord) => void;
  /** Aborting it closes the server. */
  signal?: AbortSignal;
}

/** A running (or startable) TFTP server. */
export interface TftpServer {
  /** Binds the request port; resolves with the bound address (`port` is the real one when 0 was asked). */
  start(): Promise<{ host: string; port: number }>;
  /** The bound port (after `start`). */
  readonly port: number;
  /** Transfers in progress. */
  readonly activeTransfers: number;
  /** Stops taking requests, ends every transfer (ERROR 0 to its client) and closes every socket. */
  close(): Promise<void>;
}

/** The server options that the `tftp` configuration group sets. */
export function tftpServerOptions(config: TftpConfig): Pick<TftpServerOptions, 'host' | 'port' | 'root' | 'maxBlksize' | 'maxWindowsize' | 'timeoutMs' | 'retries'> {
  return {
    host: config.host,
    port: config.port,
    ...(config.root_dir ? { root: config.root_dir } : {}),
    maxBlksize: config.max_blksize,
    maxWindowsize: config.max_windowsize,
    timeoutMs: config.timeout_s * 1000,
    retries: config.retries,
  };
}

function isStream(content: TftpReader | Readable): content is Readable {
  return typeof (content as Readable).pipe === 'function';
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Creates the TFTP server. Nothing is bound until `start()`.
 *
 * ```ts
 * const tftp = createTftpServer({ ...tftpServerOptions(config.tftp), logger,
 *   resolve: (path, remote) => path.startsWith('pxelinux.cfg/01-') ? bufferFile(render(path)) : null });
 * const { port } = await tftp.start();
 * // …
 * await tftp.close();
 * ```
 */
export function createTftpServer(options: TftpServerOptions): TftpServer {
  const host = options.host ?? '0.0.0.0';
  const limits = { maxBlksize: options.maxBlksize ?? 1468, maxWindowsize: options.maxWindowsize ?? 64 };
  const timeoutMs = options.timeoutMs ?? 1000;
  const retries = options.retries ?? 5;
  const maxTransfers = options.maxTransfers ?? 1000;
  const log = options.logger;
  const family = isIPv6(host) ? 'udp6' : 'udp4';

  let listener: Socket | undefined;
  let boundPort = 0;
  let closing: Promise<void> | undefined;
  let fromRoot: ((relative: string) => Promise<TftpFile | null>) | undefined;
  /** Requests being served, by client address:port (a retransmitted RRQ must not start a second transfer). */
  const byClient = new Map<string, string>();
  /** Every request being served (resolving or transferring), until its record is out. */
  const serving = new Set<Promise<void>>();
  const transfers = new Set<ReadTransfer>();

  /** A new socket for one client: bound to the listening address, connected to the client's TID. */
  async function transferSocket(remote: RemoteInfo): Promise<Socket> {
    const socket = createSocket({ type: family });
    try {
      // NOTE: Node does not tell which local address a request came to (no IP_PKTINFO); listening on a
      // wildcard address, the kernel picks the reply's source by route, which is the one the client
      // used on a flat boot network. Set `host` to a specific address where that does not hold.
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind({ address: host, port: 0, exclusive: true }, () => {
          socket.off('error', reject);
          resolve();
        });
      });
      // Connected: the kernel drops datagrams from any other address or port, as RFC 1350 §4 asks for
      // packets from a wrong TID (its optional ERROR 5 to the stranger is not sent).
      await new Promise<void>((resolve, reject) => socket.connect(remote.port, remote.address, (err?: Error) => (err ? reject(err) : resolve())));
      return socket;
    } catch (err) {
      socket.close();
      throw err;
    }
  }

  function refuse(socket: Socket, code: number, text: string): Promise<void> {
    return new Promise((resolve) => {
      socket.send(encodeError(code, text), () => {
        socket.close();
        resolve();
      });
    });
  }

  async function openSource(file: TftpFile, mode: string): Promise<ByteSource> {
    const content = await file.open();
    const base = isStream(content) ? streamSource(content) : readerSource(content);
    return mode === 'netascii' ? netasciiSource(base) : base;
  }

  async function serve(req: TftpRequest, rinfo: RemoteInfo): Promise<void> {
    const remote: TftpRemote = { address: rinfo.address, port: rinfo.port, family: rinfo.family === 'IPv6' ? 'IPv6' : 'IPv4' };
    const requested = Object.fromEntries(req.options);
    const meta = { remote: `${rinfo.address}:${rinfo.port}`, local_port: 0, file: req.filename, mode: req.mode, requested };
    const started = performance.now();
    let socket: Socket | undefined;
    const refused = async (code: number, text: string) => {
      if (socket) await refuse(socket, code, text);
      const record: TransferRecord = {
        ...meta,
        negotiated: {},
        blksize: 0,
        windowsize: 0,
        bytes: 0,
        retransmits: 0,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        outcome: 'refused',
        error: text,
      };
      report(record);
    };
    try {
      socket = await transferSocket(rinfo);
      meta.local_port = socket.address().port;
      if (closing) return await refused(ERROR_CODE.NOT_DEFINED, 'Server is shutting down');
      if (req.op === 'WRQ') return await refused(ERROR_CODE.ACCESS_VIOLATION, 'Access violation: this TFTP server is read-only (write requests are refused)');
      if (req.mode !== 'octet' && req.mode !== 'netascii') {
        return await refused(ERROR_CODE.ILLEGAL_OPERATION, `Illegal TFTP operation: transfer mode '${req.mode}' is not supported (use octet or netascii)`);
      }
      const name = normaliseTftpPath(req.filename);
      if (!name.ok) return await refused(ERROR_CODE.ACCESS_VIOLATION, name.reason);
      meta.file = name.path;
      const file = (await options.resolve?.(name.path, remote)) ?? (fromRoot ? await fromRoot(name.path) : null);
      if (!file) return await refused(ERROR_CODE.FILE_NOT_FOUND, `File not found: ${name.path}`);
      const negotiated = negotiate(req.options, limits, req.mode === 'octet' ? file.size : undefined);
      const source = await openSource(file, req.mode);
      if (closing) {
        await source.close();
        return await refused(ERROR_CODE.NOT_DEFINED, 'Server is shutting down');
      }
      const transfer = new ReadTransfer(
        socket,
        source,
        { blksize: negotiated.blksize, windowsize: negotiated.windowsize, timeoutMs: negotiated.timeoutMs ?? timeoutMs, retries, oack: negotiated.oack },
        meta,
      );
      transfers.add(transfer);
      socket = undefined; // the transfer owns it now
      transfer.start();
      const record = await transfer.done;
      transfers.delete(transfer);
      report(record);
    } catch (err) {
      if (err instanceof TftpError) return await refused(err.code, err.message);
      log?.warn({ err, remote: meta.remote, file: meta.file }, `tftp: ${meta.remote} ${meta.file}: ${message(err)}`);
      await refused(ERROR_CODE.NOT_DEFINED, 'Internal error on the server');
    }
  }

  function report(record: TransferRecord): void {
    // Refusals are routine (PXELINUX asks for a dozen config names before `default`); failures are not.
    const level = record.outcome === 'timeout' || record.outcome === 'failed' || record.outcome === 'client-error' ? 'warn' : 'info';
    const what = record.outcome === 'complete' ? `${record.bytes} bytes in ${record.duration_ms} ms` : `${record.outcome}${record.error ? ` (${record.error})` : ''}`;
    log?.[level]({ tftp: record }, `tftp: ${record.remote} ${record.file}: ${what}`);
    options.onTransfer?.(record);
  }

  function receive(msg: Buffer, rinfo: RemoteInfo): void {
    if (closing) return;
    let pkt;
    try {
      pkt = decodePacket(msg);
    } catch (err) {
      log?.debug({ remote: `${rinfo.address}:${rinfo.port}` }, `tftp: malformed packet: ${message(err)}`);
      // A broken request deserves an answer; any other junk on this port is dropped.
      if (msg.length >= 2 && msg[0] === 0 && (msg[1] === 1 || msg[1] === 2)) {
        listener?.send(encodeError(ERROR_CODE.ILLEGAL_OPERATION, `Illegal TFTP operation: ${message(err)}`), rinfo.port, rinfo.address);
      }
      return;
    }
    // DATA/ACK/ERROR/OACK on the request port belong to no transfer (a late packet of an ended one).
    if (pkt.op !== 'RRQ' && pkt.op !== 'WRQ') return;
    const key = `${rinfo.address}|${rinfo.port}`;
    // NOTE: a client that heard nothing yet sends its request again; a second transfer from another TID
    // would only draw ERROR 5 from it, so the copy is dropped while the first is being served.
    if (byClient.get(key) === pkt.filename) return;
    if (serving.size >= maxTransfers) {
      log?.warn({ remote: `${rinfo.address}:${rinfo.port}` }, `tftp: ${maxTransfers} transfers running, request for ${pkt.filename} refused`);
      listener?.send(encodeError(ERROR_CODE.NOT_DEFINED, 'Server busy: too many transfers, try again'), rinfo.port, rinfo.address);
      return;
    }
    byClient.set(key, pkt.filename);
    const p: Promise<void> = serve(pkt, rinfo).finally(() => {
      serving.delete(p);
      if (byClient.get(key) === pkt.filename) byClient.delete(key);
    });
    serving.add(p);
  }

  const server: TftpServer = {
    get port() {
      return boundPort;
    },
    get activeTransfers() {
      return serving.size;
    },
    async start() {
      if (listener) throw new Error('TFTP server already started');
      if (options.root !== undefined) fromRoot = rootResolver(await realpath(options.root));
      const socket = createSocket({ type: family });
      listener = socket;
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind({ address: host, port: options.port ?? 69, exclusive: true }, () => {
          socket.off('error', reject);
          resolve();
        });
      });
      socket.on('message', receive);
      socket.on('error', (err) => log?.warn({ err }, `tftp: request socket: ${err.message}`));
      boundPort = socket.address().port;
      options.signal?.addEventListener('abort', () => void server.close(), { once: true });
      log?.info({ host, port: boundPort, root: options.root }, `tftp: listening on ${host}:${boundPort}`);
      return { host, port: boundPort };
    },
    close() {
      closing ??= (async () => {
        const sock = listener;
        if (sock) await new Promise<void>((resolve) => sock.close(() => resolve()));
        for (const t of transfers) void t.abort('Server is shutting down');
        await Promise.all([...serving]);
      })();
      return closing;
    },
  };
  if (options.signal?.aborted) void server.close();
  return server;
}
