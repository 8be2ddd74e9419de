/**
 * Request/response over UDP with retransmission: send, wait, resend with a doubling timeout until an
 * answer matches or the deadline passes. UDP gives no delivery guarantee and IPMI over LAN has no
 * acknowledgement of its own, so the remote console retransmits (as ipmitool does).
 */
import type { Remote, UdpEndpoint } from './udp-endpoint.js';

/** Why an exchange found no answer. */
export class ExchangeTimeout extends Error {
  constructor(readonly sends: number) {
    super(`no answer after ${sends} transmission(s)`);
    this.name = 'ExchangeTimeout';
  }
}

export interface ExchangeOptions {
  /** Epoch ms after which no more waiting happens. */
  deadline: number;
  /** First wait for an answer, in ms; doubles on each retransmission. */
  initialTimeoutMs: number;
  signal: AbortSignal;
  /** Called once per retransmission (not for the first send). */
  onRetransmit?: () => void;
}

/**
 * Sends `build(n)` (n = 1 for the first transmission) to `remote` and resolves with the first non-undefined
 * `match(datagram)`. `build` is called again for each retransmission, so it can give every packet a
 * fresh session sequence number. Rejects with {@link ExchangeTimeout} at the deadline, with the
 * signal's reason on abort, and with whatever `match` throws.
 */
export function exchange<T>(endpoint: UdpEndpoint, remote: Remote, build: (n: number) => Buffer, match: (datagram: Buffer) => T | undefined, opts: ExchangeOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (opts.signal.aborted) return reject(opts.signal.reason);
    let sends = 0;
    let wait = opts.initialTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let done = false;

    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      unlisten();
      opts.signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => finish(() => reject(opts.signal.reason));
    const unlisten = endpoint.listen(remote, (datagram) => {
      let value: T | undefined;
      try {
        value = match(datagram);
      } catch (err) {
        finish(() => reject(err));
        return;
      }
      if (value !== undefined) finish(() => resolve(value as T));
    });
    opts.signal.addEventListener('abort', onAbort, { once: true });

    const transmit = () => {
      if (done) return;
      const left = opts.deadline - Date.now();
      if (sends > 0 && left <= 0) return finish(() => reject(new ExchangeTimeout(sends)));
      if (sends > 0) opts.onRetransmit?.();
      sends++;
      let datagram: Buffer;
      try {
        datagram = build(sends);
      } catch (err) {
        return finish(() => reject(err));
      }
      endpoint.send(remote, datagram).catch((err: unknown) => finish(() => reject(err)));
      timer = setTimeout(transmit, Math.max(1, Math.min(wait, left)));
      wait *= 2;
    };
    transmit();
  });
}
