/** A scripted TFTP peer for tests: sends packets by hand and waits for what comes back. */
import type { Socket } from 'node:dgram';
import { UdpInbox } from '../../../test/support/udp-inbox.js';
import { decodePacket, encodeAck, type TftpPacket } from './packet.js';

export interface Received {
  pkt: TftpPacket;
  port: number;
}

export class RawPeer {
  private constructor(private readonly udp: UdpInbox<Received>) {}

  static async open(): Promise<RawPeer> {
    return new RawPeer(await UdpInbox.open((msg, from) => ({ pkt: decodePacket(msg), port: from.port })));
  }

  get socket(): Socket {
    return this.udp.socket;
  }

  /** Errors the socket raised. */
  get errors(): Error[] {
    return this.udp.errors;
  }

  send(packet: Buffer, port: number): void {
    this.udp.send(packet, port);
  }

  ack(block: number, port: number): void {
    this.send(encodeAck(block), port);
  }

  /** The next packet, or undefined when none comes within `ms`. */
  next(ms = 2000): Promise<Received | undefined> {
    return this.udp.next(ms);
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
    return this.udp.drain();
  }

  close(): Promise<void> {
    return this.udp.close();
  }
}
