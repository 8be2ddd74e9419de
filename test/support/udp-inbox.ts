/**
 * A UDP socket on loopback for tests that speak a protocol by hand: it keeps what arrives, in order, and
 * waits for the next datagram in real time (tests that fake `Date` or timers still get their answers).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

export class UdpInbox<T> {
  private readonly inbox: T[] = [];
  private waiter: (() => void) | undefined;
  /** Errors the socket raised (an ICMP refusal on a connected socket, say). */
  readonly errors: Error[] = [];

  private constructor(readonly socket: Socket, decode: (msg: Buffer, from: RemoteInfo) => T) {
    socket.on('message', (msg, from) => {
      this.inbox.push(decode(msg, from));
      this.waiter?.();
    });
    socket.on('error', (err) => {
      this.errors.push(err);
      this.waiter?.();
    });
  }

  /** A socket bound to a free port on 127.0.0.1; `decode` turns each datagram into what the test reads. */
  static async open<T>(decode: (msg: Buffer, from: RemoteInfo) => T): Promise<UdpInbox<T>> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    return new UdpInbox(socket, decode);
  }

  send(datagram: Buffer, port: number): void {
    this.socket.send(datagram, port, '127.0.0.1');
  }

  /** How many datagrams wait to be read. */
  get length(): number {
    return this.inbox.length;
  }

  /** Takes every datagram waiting, leaving none. */
  drain(): T[] {
    return this.inbox.splice(0);
  }

  /** The next datagram, or undefined when none comes within `timeoutMs`. */
  async next(timeoutMs: number): Promise<T | undefined> {
    const deadline = performance.now() + timeoutMs;
    while (this.inbox.length === 0) {
      const left = deadline - performance.now();
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

  /** Closes the socket; resolves when it is closed (or already was). */
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
