/**
 * A fixed address in front of a server that changes port: the test process holds a loopback port of its
 * own (bound once, port 0) and forwards each connection to wherever the server listens now. A machine's
 * agent keeps calling one API URL while `ingot serve` is killed and started again on a new port — as
 * with a real conductor behind a stable address — and no port is ever given up and taken again.
 */
import net from 'node:net';

/** A running front. */
export interface TcpFront {
  /** `http://127.0.0.1:<port>` of the front. */
  readonly url: string;
  /** Stops listening and cuts the forwarded connections. */
  close(): Promise<void>;
}

/** Forwards connections to the URL `target()` names at the moment each one arrives (refused while it throws). */
export async function startTcpFront(target: () => string): Promise<TcpFront> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    let to: URL;
    try {
      to = new URL(target());
    } catch {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(to.port), to.hostname);
    open.add(upstream);
    upstream.once('close', () => open.delete(upstream));
    // A server that is down refuses: the client sees its connection cut, as with a conductor restarting.
    upstream.once('error', () => client.destroy());
    client.once('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
