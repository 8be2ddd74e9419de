/**
 * Ingot's IPMI v2.0 RMCP+ client: no process per call, one session per BMC and user, reused across
 * commands and closed when idle, with Ironic's per-BMC timing (./bmc-scheduler.ts).
 */
import { lookup } from 'node:dns/promises';
import { setMaxListeners } from 'node:events';
import { isIP } from 'node:net';
import type { RetryObserver } from '../retry-log.js';
import { BmcScheduler } from './bmc-scheduler.js';
import { bmcKey } from './driver-info.js';
import type { IpmiBmcInfo } from './driver-info.js';
import { errorMessage } from '../../shared/errors.js';
import { completionError, IpmiError } from './errors.js';
import type { IpmiCommand, IpmiRequester } from './requester.js';
import { IpmiSession } from './session.js';
import type { IpmiStats, WaitOptions } from './session.js';
import { ipmiSettings } from './settings.js';
import type { IpmiSettings } from './settings.js';
import { UdpEndpoint } from './udp-endpoint.js';
import type { Remote } from './udp-endpoint.js';

export type { IpmiStats } from './session.js';

/**
 * How long a reused session may stay silent before the client assumes the BMC forgot it (BMC reset,
 * session timed out on the BMC side) and opens a new one: the first transmission and one retransmission.
 */
const STALE_SESSION_PROBES = 3; // × retransmit_initial_s (1 s + 2 s)

/** The IPMI client; implements {@link IpmiRequester} for the power and management interfaces. */
export class IpmiClient implements IpmiRequester {
  readonly settings: IpmiSettings;
  readonly stats: IpmiStats = { openSessionRequests: 0, sessionsEstablished: 0, commands: 0, retransmissions: 0 };
  private readonly endpoint = new UdpEndpoint();
  private readonly scheduler: BmcScheduler;
  private readonly sessions = new Map<string, IpmiSession>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  /** The cipher suite that worked per BMC when driver_info leaves the choice to Ingot. */
  private readonly suiteOf = new Map<string, 3 | 17>();
  private closing = false;

  constructor(settings: Partial<IpmiSettings> = {}, onRetry?: RetryObserver) {
    this.settings = ipmiSettings(settings);
    this.scheduler = new BmcScheduler(this.settings, undefined, onRetry);
  }

  /** Number of open sessions in the pool. */
  get openSessions(): number {
    return this.sessions.size;
  }

  async request(bmc: IpmiBmcInfo, command: IpmiCommand, signal: AbortSignal): Promise<Uint8Array> {
    if (this.closing) throw new IpmiError('session', errorMessage('ipmiClientShutDown'));
    const key = bmcKey(bmc);
    return this.scheduler.run(key, signal, async ({ deadline }) => {
      const res = await this.attempt(bmc, command, { deadline, signal });
      if (res.completionCode !== 0) throw completionError(key, command.name, res.completionCode);
      return res.data;
    }, command.name);
  }

  /** Closes every session (Close Session to each BMC) and the sockets; for shutdown. */
  async closeAll(): Promise<void> {
    this.closing = true;
    for (const t of this.idleTimers.values()) clearTimeout(t);
    this.idleTimers.clear();
    const sessions = [...this.sessions.entries()];
    this.sessions.clear();
    const signal = new AbortController().signal;
    // One signal for every session's close, all at once.
    setMaxListeners(0, signal);
    await Promise.all(
      sessions.map(([, s]) =>
        this.scheduler.run(bmcKey(s.bmc), signal, () => s.close({ deadline: Date.now() + this.settings.retransmit_initial_s * 1000, signal })).catch(() => undefined),
      ),
    );
    await this.endpoint.close();
  }

  private poolKey(bmc: IpmiBmcInfo): string {
    return `${bmcKey(bmc)}:${bmc.username}`;
  }

  private async attempt(bmc: IpmiBmcInfo, command: IpmiCommand, wait: WaitOptions) {
    const pk = this.poolKey(bmc);
    const existing = this.sessions.get(pk);
    if (existing && existing.open && sameCredentials(existing.bmc, bmc)) {
      const probeDeadline = Math.min(wait.deadline, Date.now() + STALE_SESSION_PROBES * this.settings.retransmit_initial_s * 1000);
      try {
        const res = await existing.command(command, { deadline: probeDeadline, signal: wait.signal });
        this.touch(pk, existing);
        return res;
      } catch (err) {
        if (!(err instanceof IpmiError && err.kind === 'timeout') || Date.now() >= wait.deadline) throw err;
        existing.discard(); // the BMC forgot the session: open a new one below
        this.forget(pk, existing);
      }
    } else if (existing) {
      // driver_info changed (password, privilege, suite): end the old session first, inside this turn.
      this.forget(pk, existing);
      const closeBy = Math.min(wait.deadline, Date.now() + this.settings.retransmit_initial_s * 1000);
      await existing.close({ deadline: closeBy, signal: wait.signal }).catch(() => undefined);
    }
    const session = await this.establish(bmc, wait);
    this.sessions.set(pk, session);
    this.touch(pk, session);
    return session.command(command, wait);
  }

  private async establish(bmc: IpmiBmcInfo, wait: WaitOptions): Promise<IpmiSession> {
    const remote = await resolve(bmc);
    const ctx = { endpoint: this.endpoint, stats: this.stats, initialTimeoutMs: this.settings.retransmit_initial_s * 1000 };
    const key = bmcKey(bmc);
    const suite = bmc.cipherSuite ?? this.suiteOf.get(key) ?? 17;
    try {
      const s = await IpmiSession.establish(ctx, bmc, remote, suite, wait);
      if (bmc.cipherSuite === null) this.suiteOf.set(key, suite);
      return s;
    } catch (err) {
      // Default suite: 17, falling back to 3 when the BMC does not offer 17 (ipmi_cipher_suite unset).
      if (bmc.cipherSuite === null && suite === 17 && err instanceof IpmiError && err.kind === 'cipher') {
        const s = await IpmiSession.establish(ctx, bmc, remote, 3, wait);
        this.suiteOf.set(key, 3);
        return s;
      }
      throw err;
    }
  }

  /** Restarts the idle timer of a pooled session. */
  private touch(pk: string, session: IpmiSession): void {
    const old = this.idleTimers.get(pk);
    if (old) clearTimeout(old);
    const timer = setTimeout(() => {
      this.idleTimers.delete(pk);
      if (this.sessions.get(pk) !== session) return;
      this.sessions.delete(pk);
      const signal = new AbortController().signal;
      void this.scheduler
        .run(bmcKey(session.bmc), signal, () => session.close({ deadline: Date.now() + this.settings.retransmit_initial_s * 1000, signal }))
        .catch(() => undefined);
    }, this.settings.session_idle_timeout_s * 1000);
    timer.unref();
    this.idleTimers.set(pk, timer);
  }

  private forget(pk: string, session: IpmiSession): void {
    if (this.sessions.get(pk) !== session) return;
    this.sessions.delete(pk);
    const t = this.idleTimers.get(pk);
    if (t) clearTimeout(t);
    this.idleTimers.delete(pk);
  }
}

function sameCredentials(a: IpmiBmcInfo, b: IpmiBmcInfo): boolean {
  return a.password === b.password && a.privLevel === b.privLevel && (b.cipherSuite === null || b.cipherSuite === a.cipherSuite || a.cipherSuite === null);
}

async function resolve(bmc: IpmiBmcInfo): Promise<Remote> {
  if (isIP(bmc.address)) return { ip: bmc.address, port: bmc.port };
  try {
    const { address } = await lookup(bmc.address);
    return { ip: address, port: bmc.port };
  } catch (err) {
    throw new IpmiError('timeout', errorMessage('ipmiAddressUnresolved', { address: bmc.address, reason: (err as Error).message }), { cause: err });
  }
}
