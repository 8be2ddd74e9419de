/**
 * RMCP+ sessions of one emulated BMC endpoint (one UDP socket): Open Session, RAKP 1..4 from the BMC's
 * side (IPMI v2.0 §13.17..§13.23), then the table of active sessions with their keys, sequence numbers
 * and idle deadline. In shared-port mode the RAKP 1 user name chooses the machine.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { AUTH_ALG, cipherSuiteFor, CONFIDENTIALITY_ALG, INTEGRITY_ALG, type CipherSuite } from '../../protocol/ipmi/cipher-suites.js';
import {
  decodeOpenSessionRequest,
  decodeRakp1,
  decodeRakp3,
  encodeOpenSessionResponse,
  encodeRakp2,
  encodeRakp4,
  PRIVILEGE,
  RAKP_STATUS,
  rakp2AuthCode,
  rakp4Icv,
  sameCode,
  sessionIntegrityKey,
  userKey,
  verifyRakp3,
  type RakpContext,
} from '../../protocol/ipmi/rakp.js';
import { deriveSessionKeys, type SessionKeys } from '../../protocol/ipmi/session-keys.js';
import type { IpmiResponse } from '../../protocol/ipmi/message.js';
import type { Machine } from '../machine.js';
import { bmcGuid } from './identity.js';

/** Where a packet came from (replies go back there). */
export interface Peer {
  address: string;
  port: number;
}

/** One session, from Open Session until it is closed or idles out. */
export interface BmcSession {
  bmcSessionId: number;
  consoleSessionId: number;
  suite: CipherSuite;
  peer: Peer;
  /** Requested maximum privilege of Open Session (0 = the user's highest). */
  requestedMaxPrivilege: number;
  state: 'opened' | 'rakp2-sent' | 'active';
  /** The Open Session response, resent when the same request comes again (a retry). */
  openReply: Buffer;
  machine?: Machine;
  rakp?: RakpContext;
  /** The key RAKP 3 must be made with: the machine's password (or a random one when credentials are rejected). */
  kuid?: Buffer;
  rakp2Reply?: Buffer;
  rakp3Code?: Buffer;
  rakp4Reply?: Buffer;
  keys?: SessionKeys;
  maxPrivilege: number;
  privilege: number;
  /** The last request and its answer: a retry of it (same netFn, command, rqSeq, data) gets the answer again. */
  lastRequest?: { key: string; response: IpmiResponse };
  /** Highest inbound session sequence number accepted so far (0: none yet). */
  inboundSeq: number;
  outboundSeq: number;
  lastActivity: number;
}

/** A session-establishment answer: the payload type and payload to send back, and the session it belongs to. */
export interface HandshakeReply {
  payloadType: number;
  payload: Buffer;
  session?: BmcSession;
}

export interface SessionTableOptions {
  /** The machines reachable through this endpoint: one (port per machine) or several (shared port). */
  machines: Machine[];
  /** Sessions idle longer than this are dropped (default 60 s, the spec's usual inactivity timeout). */
  idleTimeoutMs: number;
  /** The most sessions (opened or active) the endpoint holds at once. */
  maxSessions: number;
  now: () => number;
}

/** Payload types of session establishment (table 13-16). */
const OPEN_SESSION_RESPONSE = 0x11;
const RAKP2 = 0x13;
const RAKP4 = 0x15;

/** Inbound sequence numbers may run this far ahead of or behind the highest seen (the spec’s sliding window for session sequence numbers). */
const SEQUENCE_WINDOW = 16;

/** Session table and RAKP state machine of one endpoint. */
export class SessionTable {
  private readonly sessions = new Map<number, BmcSession>();

  constructor(private readonly opts: SessionTableOptions) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Active sessions (RAKP completed). */
  activeCount(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.state === 'active') n++;
    return n;
  }

  get(bmcSessionId: number): BmcSession | undefined {
    return this.sessions.get(bmcSessionId);
  }

  delete(bmcSessionId: number): boolean {
    return this.sessions.delete(bmcSessionId);
  }

  /** Drops sessions idle past the timeout; returns how many went. */
  sweep(): number {
    const limit = this.opts.now() - this.opts.idleTimeoutMs;
    let n = 0;
    for (const [id, s] of this.sessions) {
      if (s.lastActivity < limit) {
        this.sessions.delete(id);
        n++;
      }
    }
    return n;
  }

  /** Open Session request → response. Unknown algorithm combinations are refused with the status that names them. */
  openSession(payload: Buffer, peer: Peer): HandshakeReply {
    const req = decodeOpenSessionRequest(payload);
    const refuse = (status: number): HandshakeReply => ({
      payloadType: OPEN_SESSION_RESPONSE,
      payload: encodeOpenSessionResponse({ tag: req.tag, status, maxPrivilege: 0, consoleSessionId: req.consoleSessionId }),
    });
    // A retry of a request already answered gets the same answer (and the same session).
    for (const s of this.sessions.values()) {
      if (s.state === 'opened' && s.consoleSessionId === req.consoleSessionId && s.peer.address === peer.address && s.peer.port === peer.port) {
        s.lastActivity = this.opts.now();
        return { payloadType: OPEN_SESSION_RESPONSE, payload: s.openReply, session: s };
      }
    }
    if (req.maxPrivilege > PRIVILEGE.OEM) return refuse(RAKP_STATUS.INVALID_ROLE);
    const suite = cipherSuiteFor(req.auth, req.integrity, req.confidentiality);
    if (!suite) {
      if (req.auth !== AUTH_ALG.RAKP_HMAC_SHA1 && req.auth !== AUTH_ALG.RAKP_HMAC_SHA256) return refuse(RAKP_STATUS.INVALID_AUTH_ALGORITHM);
      if (req.integrity !== INTEGRITY_ALG.HMAC_SHA1_96 && req.integrity !== INTEGRITY_ALG.HMAC_SHA256_128) return refuse(RAKP_STATUS.INVALID_INTEGRITY_ALGORITHM);
      if (req.confidentiality !== CONFIDENTIALITY_ALG.AES_CBC_128) return refuse(RAKP_STATUS.INVALID_CONFIDENTIALITY_ALGORITHM);
      return refuse(RAKP_STATUS.NO_CIPHER_SUITE_MATCH);
    }
    if (this.sessions.size >= this.opts.maxSessions) this.sweep();
    if (this.sessions.size >= this.opts.maxSessions) return refuse(RAKP_STATUS.INSUFFICIENT_RESOURCES);
    let id = 0;
    while (id === 0 || this.sessions.has(id)) id = randomInt(1, 0xffffffff);
    const maxPrivilege = req.maxPrivilege === PRIVILEGE.HIGHEST ? PRIVILEGE.ADMINISTRATOR : Math.min(req.maxPrivilege, PRIVILEGE.ADMINISTRATOR);
    const openReply = encodeOpenSessionResponse({
      tag: req.tag,
      status: RAKP_STATUS.OK,
      maxPrivilege,
      consoleSessionId: req.consoleSessionId,
      bmcSessionId: id,
      auth: suite.auth,
      integrity: suite.integrity,
      confidentiality: suite.confidentiality,
    });
    const session: BmcSession = {
      bmcSessionId: id,
      consoleSessionId: req.consoleSessionId,
      suite,
      peer,
      requestedMaxPrivilege: req.maxPrivilege,
      state: 'opened',
      openReply,
      maxPrivilege,
      privilege: PRIVILEGE.USER,
      inboundSeq: 0,
      outboundSeq: 0,
      lastActivity: this.opts.now(),
    };
    this.sessions.set(id, session);
    return { payloadType: OPEN_SESSION_RESPONSE, payload: openReply, session };
  }

  /**
   * RAKP 1 → RAKP 2. The user name picks the machine (status 0x0D when no machine of this endpoint has
   * it). With the machine's `reject_credentials` fault the BMC keys its codes with a random password, so
   * the console sees a RAKP 2 it cannot verify, as with a wrong password.
   */
  rakp1(payload: Buffer): HandshakeReply {
    const m = decodeRakp1(payload);
    const session = this.sessions.get(m.bmcSessionId);
    const refuse = (status: number, consoleSessionId = 0): HandshakeReply => ({ payloadType: RAKP2, payload: encodeRakp2({ tag: m.tag, status, consoleSessionId }) });
    if (!session || session.state === 'active') return refuse(RAKP_STATUS.INVALID_SESSION_ID);
    session.lastActivity = this.opts.now();
    if (session.state === 'rakp2-sent' && session.rakp2Reply && session.rakp?.consoleRandom.equals(m.consoleRandom)) {
      return { payloadType: RAKP2, payload: session.rakp2Reply, session };
    }
    const privilege = m.role & 0x0f;
    if (privilege < PRIVILEGE.CALLBACK || privilege > PRIVILEGE.OEM) {
      this.sessions.delete(session.bmcSessionId);
      return refuse(RAKP_STATUS.INVALID_ROLE, session.consoleSessionId);
    }
    const machine = m.username === '' ? undefined : this.opts.machines.find((x) => x.username === m.username);
    if (!machine) {
      this.sessions.delete(session.bmcSessionId);
      return refuse(RAKP_STATUS.UNAUTHORIZED_NAME, session.consoleSessionId);
    }
    const cap = session.requestedMaxPrivilege === PRIVILEGE.HIGHEST ? PRIVILEGE.ADMINISTRATOR : session.maxPrivilege;
    if (privilege > cap) {
      this.sessions.delete(session.bmcSessionId);
      return refuse(RAKP_STATUS.UNAUTHORIZED_ROLE, session.consoleSessionId);
    }
    const ctx: RakpContext = {
      auth: session.suite.auth,
      consoleSessionId: session.consoleSessionId,
      bmcSessionId: session.bmcSessionId,
      consoleRandom: m.consoleRandom,
      bmcRandom: randomBytes(16),
      bmcGuid: bmcGuid(machine),
      role: m.role,
      username: m.username,
    };
    const kuid = machine.faults.reject_credentials ? randomBytes(20) : userKey(machine.password);
    session.machine = machine;
    session.rakp = ctx;
    session.kuid = kuid;
    session.maxPrivilege = privilege;
    session.state = 'rakp2-sent';
    session.rakp2Reply = encodeRakp2({ tag: m.tag, status: RAKP_STATUS.OK, consoleSessionId: session.consoleSessionId, bmcRandom: ctx.bmcRandom, bmcGuid: ctx.bmcGuid, authCode: rakp2AuthCode(ctx, kuid) });
    return { payloadType: RAKP2, payload: session.rakp2Reply, session };
  }

  /**
   * RAKP 3 → RAKP 4. A code made with another password gets status 0x0F (invalid integrity check value)
   * and ends the session; a console that reports an error in RAKP 3 gets no answer and loses the session.
   */
  rakp3(payload: Buffer): HandshakeReply | undefined {
    const m = decodeRakp3(payload);
    const session = this.sessions.get(m.bmcSessionId);
    const refuse = (status: number, consoleSessionId = 0): HandshakeReply => ({ payloadType: RAKP4, payload: encodeRakp4({ tag: m.tag, status, consoleSessionId }) });
    if (!session || session.state === 'opened') return refuse(RAKP_STATUS.INVALID_SESSION_ID);
    session.lastActivity = this.opts.now();
    if (session.state === 'active') {
      if (session.rakp4Reply && session.rakp3Code && sameCode(m.authCode, session.rakp3Code)) return { payloadType: RAKP4, payload: session.rakp4Reply, session };
      return refuse(RAKP_STATUS.INVALID_SESSION_ID);
    }
    const ctx = session.rakp;
    const kuid = session.kuid;
    if (!ctx || !kuid) return refuse(RAKP_STATUS.INVALID_SESSION_ID);
    if (m.status !== RAKP_STATUS.OK) {
      this.sessions.delete(session.bmcSessionId);
      return undefined;
    }
    if (!verifyRakp3(ctx, kuid, m.authCode)) {
      this.sessions.delete(session.bmcSessionId);
      return refuse(RAKP_STATUS.INVALID_INTEGRITY_CHECK_VALUE, session.consoleSessionId);
    }
    const sik = sessionIntegrityKey(ctx, kuid);
    session.keys = deriveSessionKeys(session.suite, sik);
    session.state = 'active';
    session.privilege = Math.min(PRIVILEGE.USER, session.maxPrivilege);
    session.rakp3Code = m.authCode;
    session.rakp4Reply = encodeRakp4({ tag: m.tag, status: RAKP_STATUS.OK, consoleSessionId: session.consoleSessionId, icv: rakp4Icv(ctx, sik) });
    return { payloadType: RAKP4, payload: session.rakp4Reply, session };
  }

  /**
   * Accepts an inbound session sequence number of an active session: non-zero and inside the sliding
   * window around the highest one seen. Marks the session active now.
   */
  acceptSequence(session: BmcSession, sequence: number): boolean {
    if (sequence === 0) return false;
    if (session.inboundSeq !== 0 && (sequence <= session.inboundSeq - SEQUENCE_WINDOW || sequence > session.inboundSeq + SEQUENCE_WINDOW)) return false;
    session.inboundSeq = Math.max(session.inboundSeq, sequence);
    session.lastActivity = this.opts.now();
    return true;
  }

  /** The next outbound session sequence number of `session` (never 0). */
  nextOutbound(session: BmcSession): number {
    session.outboundSeq = (session.outboundSeq + 1) >>> 0;
    if (session.outboundSeq === 0) session.outboundSeq = 1;
    return session.outboundSeq;
  }
}
