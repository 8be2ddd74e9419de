/**
 * One read transfer on its own UDP socket (its TID, RFC 1350 §4): the optional OACK exchange, then DATA
 * in windows of `windowsize` blocks (RFC 7440; 1 is RFC 1350's lock-step), retransmission of the
 * window on timeout with a bounded count, and the end at the ACK of the final short (possibly empty)
 * block. Block numbers are 16 bits on the wire and wrap from 65535 to 0; inside, blocks are counted
 * without wrapping, so files of any length work.
 */
import type { Socket } from 'node:dgram';
import type { ByteSource } from './byte-source.js';
import { decodePacket, encodeError, encodeOack, ERROR_CODE, TftpDecodeError, writeDataHeader } from './packet.js';

/** How a transfer ended. */
export type TransferOutcome =
  /** The client acknowledged the final block. */
  | 'complete'
  /** The client stopped answering; retries ran out. */
  | 'timeout'
  /** The client sent ERROR 8 to the OACK (RFC 2347: it declines the options; PXE ROMs do this after a tsize probe). */
  | 'options-refused'
  /** The client sent another ERROR and gave up. */
  | 'client-error'
  /** The server refused the request (ERROR sent). */
  | 'refused'
  /** Ended by the server closing. */
  | 'aborted'
  /** A local failure: reading the content, the socket. */
  | 'failed';

/** What the server logs about each transfer. */
export interface TransferRecord {
  /** Client address and port. */
  remote: string;
  /** The server's port for this transfer (its TID); 0 when no socket was opened. */
  local_port: number;
  file: string;
  mode: string;
  /** Options as the client sent them. */
  requested: Record<string, string>;
  /** Options as acknowledged in the OACK (empty: no OACK, RFC 1350 transfer). */
  negotiated: Record<string, string>;
  blksize: number;
  windowsize: number;
  /** Data bytes acknowledged by the client. */
  bytes: number;
  /** DATA packets sent again after a timeout or a mid-window ACK. */
  retransmits: number;
  duration_ms: number;
  outcome: TransferOutcome;
  /** The reason, for every outcome but `complete`. */
  error?: string;
}

/** The settings of one transfer. */
export interface TransferSettings {
  blksize: number;
  windowsize: number;
  /** Time without an ACK before the window (or OACK) is sent again. */
  timeoutMs: number;
  /** Retransmissions of one window before the transfer is given up. */
  retries: number;
  /** Options to acknowledge; empty for an RFC 1350 transfer that starts with DATA 1. */
  oack: [string, string][];
}

/** A read transfer. `done` resolves (never rejects) with its record once its socket is closed. */
export class ReadTransfer {
  readonly done: Promise<TransferRecord>;
  private resolveDone!: (r: TransferRecord) => void;
  private readonly started = performance.now();
  private readonly bs: number;
  private readonly w: number;
  /** The window's data: blocks `base`…`base + w - 1`, `filled` bytes of it valid. */
  private readonly window: Buffer;
  /** One 4-byte DATA header per window slot, rewritten like the window only once earlier sends are out. */
  private readonly headers: Buffer[];
  private base = 1;
  private filled = 0;
  /** The number of the final block once the end of the content has been read; Infinity before. */
  private finalBlock = Infinity;
  /** Highest block acknowledged; -1 while the OACK waits for its ACK 0. */
  private acked: number;
  private sentUpTo = 0;
  /** Next window start wanted; the pump sends it when the current load/send is over. */
  private wantFrom: number | undefined;
  private working = false;
  private timer: NodeJS.Timeout | undefined;
  private misses = 0;
  private retransmits = 0;
  private finished = false;
  private readonly oackPacket: Buffer | undefined;
  private flushed: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly source: ByteSource,
    private readonly settings: TransferSettings,
    private readonly meta: { remote: string; local_port: number; file: string; mode: string; requested: Record<string, string> },
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.bs = settings.blksize;
    this.w = settings.windowsize;
    this.window = Buffer.allocUnsafe(this.bs * this.w);
    this.headers = Array.from({ length: this.w }, () => Buffer.allocUnsafe(4));
    this.oackPacket = settings.oack.length > 0 ? encodeOack(settings.oack) : undefined;
    this.acked = this.oackPacket ? -1 : 0;
    socket.on('message', (msg) => this.receive(msg));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      // ICMP port unreachable, reported on the connected socket: the client is gone.
      this.finish('failed', err.code === 'ECONNREFUSED' ? "the client's port is closed (ICMP port unreachable)" : `socket: ${err.message}`),
    );
  }

  /** Sends the OACK or the first window. */
  start(): void {
    this.timer = setTimeout(() => this.onTimeout(), this.settings.timeoutMs);
    if (this.oackPacket) this.sendRaw(this.oackPacket);
    else this.request(1);
  }

  /** Ends the transfer now, telling the client why (ERROR 0). */
  abort(reason: string): Promise<TransferRecord> {
    if (!this.finished) {
      this.sendRaw(encodeError(ERROR_CODE.NOT_DEFINED, reason));
      this.finish('aborted', reason);
    }
    return this.done;
  }

  private receive(msg: Buffer): void {
    if (this.finished) return;
    // The common case first, without building a packet object.
    if (msg.length >= 4 && msg[0] === 0 && msg[1] === 4) return this.onAck(msg.readUInt16BE(2));
    let pkt;
    try {
      pkt = decodePacket(msg);
    } catch (err) {
      if (err instanceof TftpDecodeError) return; // junk on our port: ignored, the transfer goes on
      throw err;
    }
    if (pkt.op === 'ACK') return this.onAck(pkt.block);
    if (pkt.op === 'ERROR') {
      const refused = pkt.code === ERROR_CODE.OPTION_REFUSED && this.acked < 0;
      return this.finish(refused ? 'options-refused' : 'client-error', `client sent ERROR ${pkt.code}${pkt.message ? `: ${pkt.message}` : ''}`);
    }
    this.sendRaw(encodeError(ERROR_CODE.ILLEGAL_OPERATION, `Illegal TFTP operation: ${pkt.op} during a read transfer`));
    this.finish('failed', `client sent ${pkt.op} during the transfer`);
  }

  private onAck(wire: number): void {
    if (this.acked < 0) {
      // OACK phase: only ACK 0 accepts the options (RFC 2347 §3).
      if (wire !== 0) return;
      this.acked = 0;
      this.misses = 0;
      return this.request(1);
    }
    // The absolute block this 16-bit number means: the one in [acked, sentUpTo] with these low bits.
    // That range is at most windowsize + 1 <= 65536 blocks long, so the answer is unique.
    const block = this.acked + ((wire - this.acked) & 0xffff);
    if (block > this.sentUpTo) return; // stale (from before a wrap) or never sent: ignored
    // NOTE: a repeated ACK is never answered with data (RFC 1123 §4.2.3.1, the Sorcerer's Apprentice
    // bug: answering duplicates doubles every packet from then on). Only the timer retransmits.
    if (block === this.acked) return;
    this.acked = block;
    this.misses = 0;
    if (block >= this.finalBlock) return this.finish('complete');
    // RFC 7440 §4: an ACK of a block before the window's last one says the blocks after it went
    // missing (or came out of order): the next window starts right after it.
    if (block < this.sentUpTo) this.retransmits += this.sentUpTo - block;
    this.request(block + 1);
  }

  private onTimeout(): void {
    if (this.finished) return;
    this.misses++;
    if (this.misses > this.settings.retries) {
      const waiting = this.acked < 0 ? 'the ACK of the OACK' : `the ACK of block ${this.sentUpTo} (last acknowledged: ${this.acked})`;
      return this.finish('timeout', `no answer after ${this.settings.retries} retransmissions, waiting for ${waiting}`);
    }
    this.timer?.refresh();
    // A slow read (disk, stream) counts against the retries but does not resend what is being prepared.
    if (this.working) return;
    if (this.acked < 0) {
      if (this.oackPacket) this.sendRaw(this.oackPacket);
      return;
    }
    this.retransmits += this.sentUpTo - this.acked;
    this.request(this.acked + 1);
  }

  /** Asks the pump to send the window starting at `from`. */
  private request(from: number): void {
    this.wantFrom = from;
    if (!this.working) this.pump();
  }

  /**
   * Sends the wanted window. Synchronous while the data is at hand (the lock-step path: ACK in, DATA
   * out, in one turn of the event loop); otherwise it waits for the read, or for the kernel to take
   * the previous window, and comes back.
   */
  private pump(): void {
    while (this.wantFrom !== undefined && !this.finished) {
      // NOTE: the window buffer is reused, so it may only change once the kernel has taken every
      // packet pointing into it; a send that could not go out at once waits in libuv's queue.
      if (this.socket.getSendQueueCount() > 0) return this.wait(new Promise<void>((resolve) => setImmediate(resolve)));
      const from = Math.max(this.wantFrom, this.acked + 1);
      const loading = this.load(from);
      if (loading) return this.wait(loading);
      this.wantFrom = undefined;
      this.sendWindow(from);
      this.timer?.refresh();
    }
  }

  private wait(p: Promise<void>): void {
    this.working = true;
    p.then(
      () => {
        this.working = false;
        this.pump();
      },
      (err: unknown) => {
        this.working = false;
        if (this.finished) return; // the source was closed under a pending read
        this.sendRaw(encodeError(ERROR_CODE.NOT_DEFINED, 'Read error on the server'));
        this.finish('failed', `reading ${this.meta.file}: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }

  /**
   * Makes the window hold blocks `from`… (up to windowsize of them, fewer at the end of the content).
   * Returns a promise when that needs a read; loading the same `from` again afterwards is a no-op.
   */
  private load(from: number): Promise<void> | undefined {
    const shift = from - this.base;
    if (shift > 0) {
      const drop = Math.min(shift * this.bs, this.filled);
      this.window.copyWithin(0, drop, this.filled);
      this.filled -= drop;
      this.base = from;
    }
    const room = this.window.length - this.filled;
    if (this.finalBlock !== Infinity || room === 0) return undefined;
    const n = this.source.readBuffered?.(this.window, this.filled, room);
    if (n !== undefined) return this.loaded(n, room);
    return this.source.read(this.window, this.filled, room).then((got) => this.loaded(got, room));
  }

  private loaded(n: number, room: number): undefined {
    this.filled += n;
    // The content ended inside the window: its final block is the first one not full, which is an
    // empty block when the length is a multiple of blksize (RFC 1350 §6).
    if (n < room) this.finalBlock = this.base + Math.floor(this.filled / this.bs);
    return undefined;
  }

  /** Sends blocks `from`… of the loaded window. */
  private sendWindow(from: number): void {
    const last = Math.min(this.base + this.w - 1, this.finalBlock);
    for (let block = from; block <= last; block++) {
      const i = block - this.base;
      const header = this.headers[i] as Buffer;
      writeDataHeader(header, block);
      const start = i * this.bs;
      this.socket.send([header, this.window.subarray(start, Math.min(start + this.bs, this.filled))]);
    }
    if (last > this.sentUpTo) this.sentUpTo = last;
  }

  /** Sends a control packet (OACK, ERROR); `flushed` tracks it so that closing waits for it. */
  private sendRaw(packet: Buffer): void {
    this.flushed = new Promise<void>((resolve) => {
      try {
        this.socket.send(packet, () => resolve());
      } catch {
        resolve(); // the socket is closing; nothing left to tell
      }
    });
  }

  private finish(outcome: TransferOutcome, error?: string): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    const blocksAcked = Math.max(this.acked, 0);
    const bytes = blocksAcked >= this.finalBlock ? (this.base - 1) * this.bs + this.filled : blocksAcked * this.bs;
    const record: TransferRecord = {
      ...this.meta,
      negotiated: Object.fromEntries(this.settings.oack),
      blksize: this.bs,
      windowsize: this.w,
      bytes,
      retransmits: this.retransmits,
      duration_ms: Math.round((performance.now() - this.started) * 10) / 10,
      outcome,
      ...(error === undefined ? {} : { error }),
    };
    const closed = this.flushed.then(
      () =>
        new Promise<void>((resolve) => {
          try {
            this.socket.close(() => resolve());
          } catch {
            resolve();
          }
        }),
    );
    void Promise.all([closed, this.source.close().catch(() => undefined)]).then(() => this.resolveDone(record));
  }
}
