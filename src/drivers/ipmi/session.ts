/**
 * One RMCP+ session with a BMC (IPMI v2.0 §13): Get Channel Authentication Capabilities,
 * Open Session, RAKP 1..4, Set Session Privilege Level, then authenticated and encrypted IPMI requests
 * matched to their responses by rqSeq, command and session id, and Close Session.
 */
import { randomBytes, randomInt } from 'node:crypto';
import {
  CIPHER_SUITES, CMD, CURRENT_CHANNEL, datagramKind, decodeChannelAuthCapsResponse, decodeIpmiResponse, decodeOpenSessionResponse,
  decodeRakp2, decodeRakp4, decodeV15Packet, deriveSessionKeys, encodeChannelAuthCapsRequest, encodeCloseSessionRequest,
  encodeIpmiRequest, encodeOpenSessionRequest, encodeRakp1, encodeRakp3, encodeSessionPacket, encodeSetSessionPrivilegeRequest,
  encodeV15Packet, NETFN, openSessionPacket, parseSessionPacket, PAYLOAD_TYPE, RAKP_STATUS, rakp3AuthCode, ROLE_NAME_ONLY_LOOKUP,
  sessionIntegrityKey, userKey, verifyRakp2, verifyRakp4,
} from '../../protocol/ipmi/index.js';
import type { CipherSuite, IpmiResponse, OpenSessionResponse, Rakp2, Rakp4, RakpContext, SessionKeys } from '../../protocol/ipmi/index.js';
import { bmcKey, PRIV_LEVEL_NUMBER } from './driver-info.js';
import type { IpmiBmcInfo } from './driver-info.js';
import { errorMessage } from '../../shared/errors.js';
import { CIPHER_REFUSAL_STATUSES, completionCodeName, IpmiError, rmcpStatusName } from './errors.js';
import { exchange, ExchangeTimeout } from './exchange.js';
import type { IpmiCommand } from './requester.js';
import type { Remote, UdpEndpoint } from './udp-endpoint.js';

/** Wire-level counters shared by the sessions of one client. */
export interface IpmiStats {
  /** Open Session request datagrams sent (retransmissions included). */
  openSessionRequests: number;
  /** Sessions that completed RAKP 4 and the privilege change. */
  sessionsEstablished: number;
  /** IPMI requests sent over sessions (retransmissions not counted). */
  commands: number;
  /** Retransmitted datagrams of any kind. */
  retransmissions: number;
}

/** How one exchange may wait. */
export interface WaitOptions {
  deadline: number;
  signal: AbortSignal;
}

interface SessionContext {
  endpoint: UdpEndpoint;
  stats: IpmiStats;
  initialTimeoutMs: number;
}

function timeoutError(bmc: IpmiBmcInfo, what: string, windowS: number): IpmiError {
  return new IpmiError('timeout', errorMessage('ipmiNoAnswer', { bmc: bmcKey(bmc), request: what, window: windowS.toFixed(0) }));
}

/** Runs an exchange, turning its timeout into the client's timeout error. */
async function ask<T>(ctx: SessionContext, bmc: IpmiBmcInfo, remote: Remote, what: string, build: (n: number) => Buffer, match: (d: Buffer) => T | undefined, wait: WaitOptions): Promise<T> {
  const started = Date.now();
  try {
    return await exchange(ctx.endpoint, remote, build, match, {
      deadline: wait.deadline,
      initialTimeoutMs: ctx.initialTimeoutMs,
      signal: wait.signal,
      onRetransmit: () => ctx.stats.retransmissions++,
    });
  } catch (err) {
    if (err instanceof ExchangeTimeout) throw timeoutError(bmc, what, (Date.now() - started) / 1000);
    throw err;
  }
}

/** Payload of a pre-session (session id 0) RMCP+ datagram of `payloadType`, or undefined. */
function preSessionPayload(datagram: Buffer, payloadType: number): Buffer | undefined {
  try {
    if (datagramKind(datagram) !== 'ipmi-v20') return undefined;
    const raw = parseSessionPacket(datagram);
    if (raw.payloadType !== payloadType || raw.sessionId !== 0) return undefined;
    return openSessionPacket(raw).payload;
  } catch {
    return undefined; // not ours or malformed: keep waiting
  }
}

/**
 * Decodes a pre-session answer, accepting the short error form some BMCs send.
 * NOTE: ipmi_sim 2.0.33 answers a refused Open Session with only the tag and status bytes (2 bytes,
 * not the 8 of IPMI v2.0 table 13-10); seen with `ipmitool -C 17` against it. Such an answer is read as
 * its tag and status so the refusal (and the cipher suite fallback) still works.
 */
function decodeOrShort<T extends object>(p: Buffer, decode: (b: Buffer) => T): T | { tag: number; status: number } {
  try {
    return decode(p);
  } catch (err) {
    if (p.length >= 2 && p[1] !== 0) return { tag: p[0]!, status: p[1]! };
    throw err;
  }
}

function nonZeroId(): number {
  return randomInt(1, 0xffffffff);
}

/** An established RMCP+ session. */
export class IpmiSession {
  private sequence = 1;
  private rqSeq = randomInt(0, 64);
  private readonly seenInbound = new Set<number>();
  private closed = false;
  /** Epoch ms of the last command. */
  lastUsed = Date.now();

  private constructor(
    private readonly ctx: SessionContext,
    readonly bmc: IpmiBmcInfo,
    readonly remote: Remote,
    readonly suite: CipherSuite,
    private readonly consoleSessionId: number,
    private readonly bmcSessionId: number,
    private readonly keys: SessionKeys,
  ) {}

  /** True while the session may carry commands. */
  get open(): boolean {
    return !this.closed;
  }

  /**
   * Opens a session with cipher suite `suiteId`. Throws IpmiError: `cipher` when the BMC refuses the
   * suite's algorithms, `unknown-user`, `wrong-password`, `auth`, `timeout`, `protocol`.
   */
  static async establish(ctx: SessionContext, bmc: IpmiBmcInfo, remote: Remote, suiteId: 3 | 17, wait: WaitOptions): Promise<IpmiSession> {
    const suite = CIPHER_SUITES[suiteId]!;
    const key = bmcKey(bmc);
    const priv = PRIV_LEVEL_NUMBER[bmc.privLevel];

    // Get Channel Authentication Capabilities over v1.5: proves the BMC is there and speaks IPMI v2.0.
    const caps = await ask(ctx, bmc, remote, 'Get Channel Authentication Capabilities', () =>
      encodeV15Packet({ sequence: 0, sessionId: 0, message: encodeIpmiRequest({ netFn: NETFN.APP, cmd: CMD.APP.GET_CHANNEL_AUTH_CAPABILITIES, rqSeq: 0, data: encodeChannelAuthCapsRequest({ channel: CURRENT_CHANNEL, privilege: priv, v2: true }) }) }),
      (d) => {
        try {
          if (datagramKind(d) !== 'ipmi-v15') return undefined;
          const res = decodeIpmiResponse(decodeV15Packet(d).message);
          return res.cmd === CMD.APP.GET_CHANNEL_AUTH_CAPABILITIES ? res : undefined;
        } catch {
          return undefined;
        }
      }, wait);
    if (caps.completionCode !== 0) {
      throw new IpmiError('protocol', errorMessage('ipmiAuthCapsRefused', { bmc: key, completion: completionCodeName(caps.completionCode) }));
    }
    const capabilities = decodeChannelAuthCapsResponse(caps.data);
    if (capabilities.extended && !capabilities.supportsV20) {
      throw new IpmiError('protocol', errorMessage('ipmiNoRmcpPlus', { bmc: key }));
    }

    // Open Session.
    const consoleSessionId = nonZeroId();
    const tag = randomInt(0, 256);
    const opened = await ask(ctx, bmc, remote, 'Open Session', () => {
      ctx.stats.openSessionRequests++;
      return encodeSessionPacket({ payloadType: PAYLOAD_TYPE.OPEN_SESSION_REQUEST, sessionId: 0, sequence: 0, payload: encodeOpenSessionRequest({ tag, maxPrivilege: priv, consoleSessionId, auth: suite.auth, integrity: suite.integrity, confidentiality: suite.confidentiality }) });
    }, (d) => {
      const p = preSessionPayload(d, PAYLOAD_TYPE.OPEN_SESSION_RESPONSE);
      if (!p) return undefined;
      const res: Partial<OpenSessionResponse> & { tag: number; status: number } = decodeOrShort(p, decodeOpenSessionResponse);
      return res.tag === tag && (res.consoleSessionId === consoleSessionId || res.status !== 0) ? res : undefined;
    }, wait);
    if (opened.status !== RAKP_STATUS.OK) {
      if (CIPHER_REFUSAL_STATUSES.has(opened.status)) {
        throw new IpmiError('cipher', errorMessage('ipmiCipherSuiteNotOffered', { bmc: key, suite: suiteId, status: rmcpStatusName(opened.status) }), { code: opened.status });
      }
      throw new IpmiError('auth', errorMessage('ipmiOpenSessionRefused', { bmc: key, status: rmcpStatusName(opened.status) }), {
        code: opened.status,
        retryable: opened.status === RAKP_STATUS.INSUFFICIENT_RESOURCES || opened.status === RAKP_STATUS.INSUFFICIENT_RESOURCES_FOR_ROLE,
      });
    }
    const bmcSessionId = opened.bmcSessionId!;

    // RAKP 1 / 2.
    const consoleRandom = randomBytes(16);
    const role = priv | ROLE_NAME_ONLY_LOOKUP;
    const rakp2 = await ask(ctx, bmc, remote, 'RAKP 1', () =>
      encodeSessionPacket({ payloadType: PAYLOAD_TYPE.RAKP1, sessionId: 0, sequence: 0, payload: encodeRakp1({ tag, bmcSessionId, consoleRandom, role, username: bmc.username }) }),
    (d) => {
      const p = preSessionPayload(d, PAYLOAD_TYPE.RAKP2);
      if (!p) return undefined;
      const m: Partial<Rakp2> & { tag: number; status: number } = decodeOrShort(p, decodeRakp2);
      return m.tag === tag ? m : undefined;
    }, wait);
    if (rakp2.status === RAKP_STATUS.UNAUTHORIZED_NAME) {
      throw new IpmiError('unknown-user', errorMessage('ipmiUnknownUser', { bmc: key, user: JSON.stringify(bmc.username), status: rmcpStatusName(rakp2.status) }), { code: rakp2.status });
    }
    if (rakp2.status === RAKP_STATUS.UNAUTHORIZED_ROLE || rakp2.status === RAKP_STATUS.INVALID_ROLE) {
      throw new IpmiError('auth', errorMessage('ipmiPrivLevelRefusedRakp2', { bmc: key, level: bmc.privLevel, user: JSON.stringify(bmc.username), status: rmcpStatusName(rakp2.status) }), { code: rakp2.status });
    }
    if (rakp2.status !== RAKP_STATUS.OK) {
      throw new IpmiError('auth', errorMessage('ipmiRakp2Refused', { bmc: key, status: rmcpStatusName(rakp2.status) }), { code: rakp2.status, retryable: rakp2.status === RAKP_STATUS.INSUFFICIENT_RESOURCES });
    }
    const rakp: RakpContext = { auth: suite.auth, consoleSessionId, bmcSessionId, consoleRandom, bmcRandom: rakp2.bmcRandom!, bmcGuid: rakp2.bmcGuid!, role, username: bmc.username };
    const kuid = userKey(bmc.password);
    if (!verifyRakp2(rakp, kuid, rakp2.authCode)) {
      // Tell the BMC, so it frees the half-open session (§13.22: RAKP 3 with a status code), then give up.
      void ctx.endpoint
        .send(remote, encodeSessionPacket({ payloadType: PAYLOAD_TYPE.RAKP3, sessionId: 0, sequence: 0, payload: encodeRakp3({ tag, status: RAKP_STATUS.INVALID_INTEGRITY_CHECK_VALUE, bmcSessionId, authCode: Buffer.alloc(0) }) }))
        .catch(() => undefined);
      throw new IpmiError('wrong-password', errorMessage('ipmiWrongPasswordRakp2', { bmc: key, user: JSON.stringify(bmc.username) }));
    }

    // RAKP 3 / 4.
    const rakp4 = await ask(ctx, bmc, remote, 'RAKP 3', () =>
      encodeSessionPacket({ payloadType: PAYLOAD_TYPE.RAKP3, sessionId: 0, sequence: 0, payload: encodeRakp3({ tag, status: 0, bmcSessionId, authCode: rakp3AuthCode(rakp, kuid) }) }),
    (d) => {
      const p = preSessionPayload(d, PAYLOAD_TYPE.RAKP4);
      if (!p) return undefined;
      const m: Partial<Rakp4> & { tag: number; status: number } = decodeOrShort(p, decodeRakp4);
      return m.tag === tag ? m : undefined;
    }, wait);
    if (rakp4.status === RAKP_STATUS.INVALID_INTEGRITY_CHECK_VALUE) {
      throw new IpmiError('wrong-password', errorMessage('ipmiWrongPasswordRakp4', { bmc: key, user: JSON.stringify(bmc.username), status: rmcpStatusName(rakp4.status) }));
    }
    if (rakp4.status !== RAKP_STATUS.OK) throw new IpmiError('auth', errorMessage('ipmiRakp4Refused', { bmc: key, status: rmcpStatusName(rakp4.status) }), { code: rakp4.status });
    const sik = sessionIntegrityKey(rakp, kuid);
    if (!verifyRakp4(rakp, sik, rakp4.icv)) {
      throw new IpmiError('protocol', errorMessage('ipmiRakp4IntegrityMismatch', { bmc: key }));
    }

    const session = new IpmiSession(ctx, bmc, remote, suite, consoleSessionId, bmcSessionId, deriveSessionKeys(suite, sik));
    // A new session runs at USER level until Set Session Privilege Level; raise it to the level driver_info asks for.
    if (priv > PRIV_LEVEL_NUMBER.USER) {
      const res = await session.command({ name: 'Set Session Privilege Level', netFn: NETFN.APP, cmd: CMD.APP.SET_SESSION_PRIVILEGE_LEVEL, data: encodeSetSessionPrivilegeRequest(priv) }, wait);
      if (res.completionCode !== 0) {
        await session.close(wait).catch(() => undefined);
        throw new IpmiError('auth', errorMessage('ipmiPrivLevelRefused', { bmc: key, level: bmc.privLevel, user: JSON.stringify(bmc.username), completion: completionCodeName(res.completionCode) }), { code: res.completionCode });
      }
    }
    ctx.stats.sessionsEstablished++;
    return session;
  }

  /**
   * Sends `command` over the session; resolves with the response whatever its completion code.
   * NOTE: a retransmission is a new packet with the next session sequence number (a BMC drops a
   * sequence number it has seen as a replay) and the same rqSeq, so an answer to any
   * copy matches; like ipmitool, a command whose answer was lost may run twice on the BMC.
   */
  async command(command: IpmiCommand, wait: WaitOptions): Promise<IpmiResponse> {
    if (this.closed) throw new IpmiError('session', errorMessage('ipmiSessionClosed', { bmc: bmcKey(this.bmc) }));
    this.rqSeq = (this.rqSeq + 1) & 0x3f;
    const rqSeq = this.rqSeq;
    const message = encodeIpmiRequest({ netFn: command.netFn, cmd: command.cmd, rqSeq, data: Buffer.from(command.data ?? []) });
    this.ctx.stats.commands++;
    this.lastUsed = Date.now();
    const res = await ask(this.ctx, this.bmc, this.remote, command.name, () => {
      const sequence = this.nextSequence();
      return encodeSessionPacket({ payloadType: PAYLOAD_TYPE.IPMI, sessionId: this.bmcSessionId, sequence, payload: message }, this.keys);
    }, (d) => this.matchResponse(d, command, rqSeq), wait);
    this.lastUsed = Date.now();
    return res;
  }

  /** Close Session (§22.19), best effort: one short exchange, errors ignored. */
  async close(wait: WaitOptions): Promise<void> {
    if (this.closed) return;
    try {
      await this.command({ name: 'Close Session', netFn: NETFN.APP, cmd: CMD.APP.CLOSE_SESSION, data: encodeCloseSessionRequest(this.bmcSessionId) }, wait);
    } catch {
      // The BMC times idle sessions out by itself.
    } finally {
      this.closed = true;
    }
  }

  /** Forgets the session without telling the BMC (it no longer knows it). */
  discard(): void {
    this.closed = true;
  }

  private nextSequence(): number {
    const s = this.sequence;
    this.sequence = this.sequence >= 0xffffffff ? 1 : this.sequence + 1; // 0 is never used for packets inside a session
    return s;
  }

  private matchResponse(d: Buffer, command: IpmiCommand, rqSeq: number): IpmiResponse | undefined {
    let raw;
    try {
      if (datagramKind(d) !== 'ipmi-v20') return undefined;
      raw = parseSessionPacket(d);
    } catch {
      return undefined;
    }
    if (raw.payloadType !== PAYLOAD_TYPE.IPMI || raw.sessionId !== this.consoleSessionId) return undefined;
    if (this.seenInbound.has(raw.sequence)) return undefined; // duplicate or replay
    let res: IpmiResponse;
    try {
      res = decodeIpmiResponse(openSessionPacket(raw, this.keys).payload);
    } catch {
      return undefined; // fails integrity or decryption: not from this session
    }
    this.seenInbound.add(raw.sequence);
    if (this.seenInbound.size > 64) this.seenInbound.delete(this.seenInbound.values().next().value as number);
    if (res.rqSeq !== rqSeq || res.cmd !== command.cmd || res.netFn !== (command.netFn | 1)) return undefined; // late answer to an earlier request
    return res;
  }
}
