/**
 * The client's UDP sockets: one per address family, shared by every BMC session, with datagrams routed
 * to listeners by the sender's `ip:port`. Sockets are bound lazily on the first send and unref'd, so an
 * idle client never keeps the process alive.
 */
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { errorMessage } from '../../shared/errors.js';
import { IpmiError } from './errors.js';

/** Where a BMC's datagrams come from and go to (a resolved IP address). */
export interface Remote {
  ip: string;
  port: number;
}

export type DatagramListener = (datagram: Buffer) => void;

function keyOf(r: Remote): string {
  return `${r.ip}|${r.port}`;
}

/** Shared UDP sockets with per-remote listeners. */
export class UdpEndpoint {
  private readonly sockets = new Map<'udp4' | 'udp6', Promise<Socket>>();
  private readonly listeners = new Map<string, Set<DatagramListener>>();
  private closed = false;
  /** Datagrams sent, for stats. */
  sent = 0;

  /** Calls `fn` with every datagram from `remote` until the returned function is called. */
  listen(remote: Remote, fn: DatagramListener): () => void {
    const key = keyOf(remote);
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(fn);
    return () => {
      const s = this.listeners.get(key);
      s?.delete(fn);
      if (s?.size === 0) this.listeners.delete(key);
    };
  }

  /** Sends one datagram to `remote`. */
  async send(remote: Remote, datagram: Buffer): Promise<void> {
    const socket = await this.socket(isIPv6(remote.ip) ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => socket.send(datagram, remote.port, remote.ip, (err) => (err ? reject(err) : resolve())));
    this.sent++;
  }

  /** Closes the sockets; later sends fail. */
  async close(): Promise<void> {
    this.closed = true;
    const sockets = await Promise.allSettled([...this.sockets.values()]);
    this.sockets.clear();
    await Promise.all(
      sockets.map((s) => (s.status === 'fulfilled' ? new Promise<void>((resolve) => s.value.close(() => resolve())) : undefined)),
    );
  }

  private socket(type: 'udp4' | 'udp6'): Promise<Socket> {
    if (this.closed) return Promise.reject(new IpmiError('session', errorMessage('ipmiClientShutDown')));
    let p = this.sockets.get(type);
    if (!p) {
      p = new Promise<Socket>((resolve, reject) => {
        const s = createSocket(type);
        s.once('error', reject);
        s.on('message', (msg, rinfo) => {
          const set = this.listeners.get(keyOf({ ip: rinfo.address, port: rinfo.port }));
          if (set) for (const fn of [...set]) fn(msg);
        });
        s.bind(0, () => {
          s.removeListener('error', reject);
          // NOTE: ICMP errors are not reported on unconnected UDP sockets on Linux, but other platforms
          // may emit them; an unanswered request ends by its timeout either way.
          s.on('error', () => undefined);
          s.unref();
          resolve(s);
        });
      });
      this.sockets.set(type, p);
    }
    return p;
  }
}
