/**
 * A fixed UDP address in front of a peer that changes port (a BMC restarted on port 0): the test
 * process holds one loopback port of its own and relays each client's datagrams to wherever the peer
 * listens now, and the answers back. No port is given up and taken again.
 */
import { createSocket, type Socket } from 'node:dgram';

/** A running relay. */
export interface UdpFront {
  /** The port clients send to (on 127.0.0.1). */
  readonly port: number;
  close(): Promise<void>;
}

const bind = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });

/** Relays datagrams to 127.0.0.1:`target()`, read at each datagram. */
export async function startUdpFront(target: () => number): Promise<UdpFront> {
  const front = createSocket('udp4');
  await bind(front);
  // One upstream socket per client address, so that the peer tells clients apart as it would.
  const upstreams = new Map<string, Promise<Socket>>();
  front.on('message', (msg, client) => {
    const key = `${client.address}:${client.port}`;
    let upstream = upstreams.get(key);
    if (!upstream) {
      upstream = (async () => {
        const s = createSocket('udp4');
        await bind(s);
        s.on('message', (answer) => front.send(answer, client.port, client.address));
        // An ICMP error of an earlier send (the peer down a moment): nothing to do but carry on.
        s.on('error', () => undefined);
        return s;
      })();
      upstreams.set(key, upstream);
    }
    void upstream.then((s) => {
      // A peer between two lives has no port: the datagram is lost, as it would be on the wire.
      const port = target();
      if (port > 0) s.send(msg, port, '127.0.0.1');
    });
  });
  return {
    port: front.address().port,
    close: async () => {
      const sockets = await Promise.all(upstreams.values());
      await Promise.all([front, ...sockets].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
