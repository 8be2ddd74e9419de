/** A scripted TFTP peer for tests: sends packets by hand and waits for what comes back. */
import { createSocket, type Socket } from 'node:dgram';
import { decodePacket, encodeAck, type TftpPacket } from './packet.js';

export interface Received {
  pkt: TftpPacket;
  port: number;
}

export class RawPeer {
  readonly socket: Socket;
  private readonly inbox: Received[] = [];
  private waiter: (() => void) | undefined;
  readonly errors: Error[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('message', (msg, rinfo) => {
      this.inbox.push({ pkt: decodePacket(msg), port: rinfo.port });
      this.waiter?.();
    });
    socket.on('error', (err) => {
      this.errors.push(err);
      this.waiter?.();
    });
  }

  static async open(): Promise<RawPeer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new RawPeer(socket);
  }

  send(packet: Buffer, port: number): void {
    this.socket.send(packet, port, '127.0.0.1');
  }

  ack(block: number, port: number): void {
    this.send(encodeAck(block), port);
  }

  /** The next packet, or undefined when none comes within `ms`. */
  async next(ms = 2000): Promise<Received | undefined> {
    const deadline = Date.now() + ms;
    while (this.inbox.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.waiter = undefined;
    }
    return this.inbox.shift();
  }

  /** The next packet; fails the test when none comes. */
  async expect(ms = 2000): Promise<Received> {
    const r = await this.next(ms);
    if (!r) throw new Error(`no packet within ${ms} ms`);
    return r;
  }

  /** DATA block numbers (16-bit) of the next `count` packets. */
  async blocks(count: number, ms = 2000): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const r = await this.expect(ms);
      if (r.pkt.op !== 'DATA') throw new Error(`expected DATA, got ${JSON.stringify(r.pkt)}`);
      out.push(r.pkt.block);
    }
    return out;
  }

  /** Packets received during `ms`, without waiting for any in particular. */
  async collect(ms: number): Promise<Received[]> {
    await new Promise((r) => setTimeout(r, ms));
    return this.inbox.splice(0);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}
