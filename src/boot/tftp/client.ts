/**
 * A small TFTP read client (RFC 1350 with blksize, tsize, timeout and windowsize): the boot server's
 * own check and the measuring client of its benchmark. It acknowledges as RFC 7440 §4 describes: the
 * last block of every window, the final block, and, after a gap or a repeat, the last block received
 * in order.
 */
import { createHash } from 'node:crypto';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { decodePacket, encodeAck, encodeError, encodeRequest, ERROR_CODE } from './packet.js';

/** What to fetch and which options to ask for (none: a plain RFC 1350 request). */
export interface TftpGetOptions {
  host: string;
  port: number;
  file: string;
  mode?: 'octet' | 'netascii';
  blksize?: number;
  windowsize?: number;
  /** Ask for tsize (the server answers the size in its OACK). */
  tsize?: boolean;
  /** The timeout option to send, in seconds. */
  timeoutS?: number;
  /** The client's own wait before it repeats its last packet, in ms (default 1000). */
  retransmitMs?: number;
  /** Repeats of one packet before it gives up (default 5). */
  retries?: number;
  /**
   * After the final ACK, keep listening this long and acknowledge the final block again if it comes
   * back (its ACK was lost; RFC 1350 §6 "dallying"). Default 0: the result comes at once.
   */
  dallyMs?: number;
  /** Each block's data, in order (the buffer is only valid during the call). */
  onData?: (data: Buffer) => void;
  signal?: AbortSignal;
}

/** A completed read. */
export interface TftpGetResult {
  bytes: number;
  sha256: string;
  /** The server's OACK options (empty: it sent none). */
  oack: Record<string, string>;
  blksize: number;
  windowsize: number;
  /** ACKs sent that repeated an earlier one (gaps, repeats, timeouts). */
  repeatedAcks: number;
  durationMs: number;
}

/** The server answered with an ERROR packet, or the transfer failed. */
export class TftpClientError extends Error {
  override readonly name = 'TftpClientError';
  constructor(
    message: string,
    /** The server's ERROR code, when it sent one. */
    readonly code?: number,
  ) {
    super(message);
  }
}

/** Reads one file from a TFTP server. */
export function tftpGet(opts: TftpGetOptions): Promise<TftpGetResult> {
  const requestOptions: [string, string][] = [];
  if (opts.blksize !== undefined) requestOptions.push(['blksize', String(opts.blksize)]);
  if (opts.tsize) requestOptions.push(['tsize', '0']);
  if (opts.timeoutS !== undefined) requestOptions.push(['timeout', String(opts.timeoutS)]);
  if (opts.windowsize !== undefined) requestOptions.push(['windowsize', String(opts.windowsize)]);
  const rrq = encodeRequest('RRQ', opts.file, opts.mode ?? 'octet', requestOptions);
  const retransmitMs = opts.retransmitMs ?? 1000;
  const retries = opts.retries ?? 5;
  const socket = createSocket(isIPv6(opts.host) ? 'udp6' : 'udp4');
  const hash = createHash('sha256');
  const started = performance.now();

  return new Promise<TftpGetResult>((resolve, reject) => {
    let tid: number | undefined;
    let oack: Record<string, string> = {};
    let blksize = 512;
    let windowsize = 1;
    let expected = 1; // next block wanted, counted without wrapping
    let inWindow = 0;
    let bytes = 0;
    let repeatedAcks = 0;
    let gapAcked = false;
    let misses = 0;
    let ended = false;

    const timer = setTimeout(function retransmit() {
      if (++misses > retries) return end(new TftpClientError(`no answer from ${opts.host}:${opts.port} after ${retries} retransmissions`));
      timer.refresh();
      if (tid === undefined) return send(rrq);
      // Where the data stands; the server's next window starts after it.
      repeatedAcks++;
      inWindow = 0;
      ack(expected - 1);
    }, retransmitMs);

    const end = (err?: Error, durationMs = performance.now() - started) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // The final ACK must leave before the socket closes (an unconnected socket's send is asynchronous).
      void flushed.then(() => {
        socket.close();
        if (err) reject(err);
        else resolve({ bytes, sha256: hash.digest('hex'), oack, blksize, windowsize, repeatedAcks, durationMs });
      });
    };
    /** The final block is in: answer its repeats for `dallyMs`, then end. */
    const dally = () => {
      const finalAck = encodeAck(expected - 1);
      const finalBlock = (expected - 1) & 0xffff;
      const durationMs = performance.now() - started;
      if (!opts.dallyMs) return end(undefined, durationMs);
      clearTimeout(timer);
      socket.removeAllListeners('message');
      socket.on('message', (msg: Buffer, rinfo: RemoteInfo) => {
        if (rinfo.port === tid && msg.length >= 4 && msg.readUInt16BE(0) === 3 && msg.readUInt16BE(2) === finalBlock) send(finalAck);
      });
      setTimeout(() => end(undefined, durationMs), opts.dallyMs);
    };
    const onAbort = () => {
      if (tid !== undefined) send(encodeError(ERROR_CODE.NOT_DEFINED, 'Client aborted'));
      end(opts.signal?.reason instanceof Error ? opts.signal.reason : new TftpClientError('aborted'));
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    let flushed: Promise<void> = Promise.resolve();
    function send(packet: Buffer): void {
      flushed = new Promise((resolve) => socket.send(packet, tid ?? opts.port, opts.host, () => resolve()));
    }
    function ack(block: number): void {
      send(encodeAck(block));
    }

    socket.on('error', (err) => end(err));
    socket.on('message', (msg: Buffer, rinfo: RemoteInfo) => {
      if (ended) return;
      if (tid === undefined) tid = rinfo.port;
      else if (rinfo.port !== tid) {
        socket.send(encodeError(ERROR_CODE.UNKNOWN_TID, 'Unknown transfer ID'), rinfo.port, rinfo.address);
        return;
      }
      let pkt;
      try {
        pkt = decodePacket(msg);
      } catch {
        return;
      }
      if (pkt.op === 'ERROR') return end(new TftpClientError(`server error ${pkt.code}: ${pkt.message}`, pkt.code));
      if (pkt.op === 'OACK') {
        if (expected !== 1 || bytes > 0) return;
        oack = Object.fromEntries(pkt.options);
        blksize = Number(oack.blksize ?? 512);
        windowsize = Number(oack.windowsize ?? 1);
        misses = 0;
        timer.refresh();
        return ack(0);
      }
      if (pkt.op !== 'DATA') return;
      if (pkt.block !== (expected & 0xffff)) {
        // Not progress: the timer keeps running, so a lost ACK is repeated even while repeats arrive.
        // A gap or a repeat: say once where the data stands, until it moves on again.
        if (!gapAcked) {
          gapAcked = true;
          repeatedAcks++;
          inWindow = 0;
          ack(expected - 1);
        }
        return;
      }
      gapAcked = false;
      misses = 0;
      timer.refresh();
      hash.update(pkt.data);
      opts.onData?.(pkt.data);
      bytes += pkt.data.length;
      expected++;
      inWindow++;
      if (pkt.data.length < blksize) {
        ack(expected - 1);
        return dally();
      }
      if (inWindow >= windowsize) {
        inWindow = 0;
        ack(expected - 1);
      }
    });
    socket.bind(0, () => send(rrq));
  });
}
