/**
 * IPMI session wrappers over RMCP (IPMI v2.0 §13.6, table 13-8): the v1.5 wrapper with auth type none
 * (pre-session Get Channel Authentication Capabilities) and the v2.0/RMCP+ wrapper (auth type 0x06)
 * with its payload type, session id, session sequence, payload length, and the integrity trailer.
 */
import { timingSafeEqual } from 'node:crypto';
import { IpmiDecodeError, need } from './errors.js';
import { decodeRmcpHeader, rmcpHeader, RMCP_CLASS_ASF, RMCP_CLASS_IPMI, RMCP_HEADER_LENGTH } from './rmcp.js';
import { aesDecrypt, aesEncrypt, encrypts, integrityAuthCode, type SessionKeys } from './session-keys.js';
import { INTEGRITY_ALG, integrityLength } from './cipher-suites.js';

export const AUTH_TYPE_NONE = 0x00;
export const AUTH_TYPE_RMCP_PLUS = 0x06;

/** Payload types (table 13-16). */
export const PAYLOAD_TYPE = {
  IPMI: 0x00,
  SOL: 0x01,
  OPEN_SESSION_REQUEST: 0x10,
  OPEN_SESSION_RESPONSE: 0x11,
  RAKP1: 0x12,
  RAKP2: 0x13,
  RAKP3: 0x14,
  RAKP4: 0x15,
} as const;

const PAYLOAD_ENCRYPTED = 0x80;
const PAYLOAD_AUTHENTICATED = 0x40;
/** "Next header" of the session trailer, fixed by table 13-8. */
export const NEXT_HEADER = 0x07;

/** A v1.5 packet with auth type none: sequence, session id and one IPMI message. */
export interface V15Packet {
  sequence: number;
  sessionId: number;
  message: Buffer;
}

/** Encodes a whole v1.5 datagram (RMCP header, session header, length, message). Auth type none only. */
export function encodeV15Packet(pkt: V15Packet): Buffer {
  const head = Buffer.alloc(10);
  head[0] = AUTH_TYPE_NONE;
  head.writeUInt32LE(pkt.sequence >>> 0, 1);
  head.writeUInt32LE(pkt.sessionId >>> 0, 5);
  head[9] = pkt.message.length;
  return Buffer.concat([rmcpHeader(RMCP_CLASS_IPMI), head, pkt.message]);
}

/** Decodes a v1.5 datagram with auth type none (others carry a 16-byte AuthCode Ingot does not speak). */
export function decodeV15Packet(datagram: Uint8Array): V15Packet {
  const buf = Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  need(buf, RMCP_HEADER_LENGTH, 10, 'IPMI v1.5 session header');
  if (buf[4] !== AUTH_TYPE_NONE) throw new IpmiDecodeError(`IPMI v1.5 auth type 0x${(buf[4] as number).toString(16)} is not supported`);
  const len = buf[13] as number;
  need(buf, 14, len, 'IPMI v1.5 message');
  return { sequence: buf.readUInt32LE(5), sessionId: buf.readUInt32LE(9), message: Buffer.from(buf.subarray(14, 14 + len)) };
}

/** A v2.0 packet in clear: what a caller sends or receives once integrity and encryption are handled. */
export interface SessionPacket {
  payloadType: number;
  /** Session id of the receiver (the BMC's id in requests, the console's in responses); 0 before the session. */
  sessionId: number;
  sequence: number;
  payload: Buffer;
}

/** A v2.0 packet as parsed from the wire, before its AuthCode is checked or its payload decrypted. */
export interface RawSessionPacket {
  payloadType: number;
  encrypted: boolean;
  authenticated: boolean;
  sessionId: number;
  sequence: number;
  /** The payload as sent (IV + ciphertext when encrypted). */
  payload: Buffer;
  /** Everything after the payload: integrity pad, pad length, next header, AuthCode. */
  trailer: Buffer;
  /** The datagram without the RMCP header: auth type byte onwards (the AuthCode covers a prefix of it). */
  session: Buffer;
}

/**
 * Encodes a whole v2.0 datagram. With `keys` the payload is encrypted (AES-CBC-128) and the packet
 * authenticated as those keys say; without, it goes in clear (pre-session messages).
 */
export function encodeSessionPacket(pkt: SessionPacket, keys?: SessionKeys): Buffer {
  const encrypted = encrypts(keys);
  const authenticated = keys !== undefined && keys.integrity !== INTEGRITY_ALG.NONE;
  const payload = encrypted && keys ? aesEncrypt(keys.k2, pkt.payload) : pkt.payload;
  const head = Buffer.alloc(12);
  head[0] = AUTH_TYPE_RMCP_PLUS;
  head[1] = (pkt.payloadType & 0x3f) | (encrypted ? PAYLOAD_ENCRYPTED : 0) | (authenticated ? PAYLOAD_AUTHENTICATED : 0);
  head.writeUInt32LE(pkt.sessionId >>> 0, 2);
  head.writeUInt32LE(pkt.sequence >>> 0, 6);
  head.writeUInt16LE(payload.length, 10);
  if (!authenticated || !keys) return Buffer.concat([rmcpHeader(RMCP_CLASS_IPMI), head, payload]);
  // NOTE: the AuthCode covers auth type .. next header; the 0xff pad makes that range a multiple of
  // 4 bytes (table 13-8; ipmitool computes it the same way in ipmi_lanplus_build_v2x_msg).
  const covered = head.length + payload.length + 2;
  const padLength = (4 - (covered % 4)) % 4;
  const trailer = Buffer.alloc(padLength + 2, 0xff);
  trailer[padLength] = padLength;
  trailer[padLength + 1] = NEXT_HEADER;
  const signed = Buffer.concat([head, payload, trailer]);
  return Buffer.concat([rmcpHeader(RMCP_CLASS_IPMI), signed, integrityAuthCode(keys, signed)]);
}

/** Parses a v2.0 datagram's header, payload and trailer without checking or decrypting anything. */
export function parseSessionPacket(datagram: Uint8Array): RawSessionPacket {
  const buf = Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  need(buf, RMCP_HEADER_LENGTH, 12, 'RMCP+ session header');
  if (buf[4] !== AUTH_TYPE_RMCP_PLUS) throw new IpmiDecodeError(`auth type 0x${(buf[4] as number).toString(16)} is not RMCP+ (0x06)`);
  const typeByte = buf[5] as number;
  if ((typeByte & 0x3f) === 0x02) throw new IpmiDecodeError('OEM explicit payloads are not supported');
  const len = buf.readUInt16LE(14);
  need(buf, 16, len, 'RMCP+ payload');
  return {
    payloadType: typeByte & 0x3f,
    encrypted: (typeByte & PAYLOAD_ENCRYPTED) !== 0,
    authenticated: (typeByte & PAYLOAD_AUTHENTICATED) !== 0,
    sessionId: buf.readUInt32LE(6),
    sequence: buf.readUInt32LE(10),
    payload: Buffer.from(buf.subarray(16, 16 + len)),
    trailer: Buffer.from(buf.subarray(16 + len)),
    session: Buffer.from(buf.subarray(RMCP_HEADER_LENGTH)),
  };
}

/**
 * Checks a parsed packet's AuthCode and decrypts its payload with `keys`. A packet of an active session
 * must be authenticated and encrypted exactly as the session's algorithms say; without `keys` the packet
 * must be in clear. Throws {@link IpmiDecodeError} otherwise.
 */
export function openSessionPacket(raw: RawSessionPacket, keys?: SessionKeys): SessionPacket {
  const wantAuth = keys !== undefined && keys.integrity !== INTEGRITY_ALG.NONE;
  const wantEnc = encrypts(keys);
  if (raw.authenticated !== wantAuth) throw new IpmiDecodeError(raw.authenticated ? 'unexpected authenticated packet' : 'packet is not authenticated');
  if (raw.encrypted !== wantEnc) throw new IpmiDecodeError(raw.encrypted ? 'unexpected encrypted packet' : 'packet is not encrypted');
  if (wantAuth && keys) {
    const codeLength = integrityLength(keys.integrity);
    if (raw.trailer.length < codeLength + 2) throw new IpmiDecodeError('session trailer too short');
    const signedLength = raw.session.length - codeLength;
    const signed = raw.session.subarray(0, signedLength);
    const code = raw.session.subarray(signedLength);
    const expected = integrityAuthCode(keys, signed);
    if (!timingSafeEqual(code, expected)) throw new IpmiDecodeError('integrity AuthCode mismatch');
    if (signed[signed.length - 1] !== NEXT_HEADER) throw new IpmiDecodeError('session trailer next header is not 0x07');
    const padLength = signed[signed.length - 2] as number;
    if (raw.trailer.length !== padLength + 2 + codeLength) throw new IpmiDecodeError('integrity pad length does not match the trailer');
  }
  const payload = wantEnc && keys ? aesDecrypt(keys.k2, raw.payload) : raw.payload;
  return { payloadType: raw.payloadType, sessionId: raw.sessionId, sequence: raw.sequence, payload };
}

/** What a datagram holds, judged by its RMCP class and session auth type. */
export type DatagramKind = 'asf' | 'ipmi-v15' | 'ipmi-v20';

/** Classifies a datagram; throws {@link IpmiDecodeError} for anything that is not RMCP ASF or IPMI. */
export function datagramKind(datagram: Uint8Array): DatagramKind {
  const rmcp = decodeRmcpHeader(datagram);
  if (rmcp.cls === RMCP_CLASS_ASF) return 'asf';
  if (rmcp.cls !== RMCP_CLASS_IPMI) throw new IpmiDecodeError(`RMCP class 0x${rmcp.cls.toString(16)} is not IPMI`);
  need(datagram, RMCP_HEADER_LENGTH, 1, 'IPMI session header');
  return (datagram[RMCP_HEADER_LENGTH] as number) === AUTH_TYPE_RMCP_PLUS ? 'ipmi-v20' : 'ipmi-v15';
}
