/**
 * RMCP+ session establishment (IPMI v2.0 §13.17..§13.23, §13.31): Open Session request/response and
 * RAKP messages 1..4, and the RAKP-HMAC computations both ends make. Subscripts follow the spec:
 * "m" is the remote console, "c" the managed system (BMC).
 */
import { timingSafeEqual } from 'node:crypto';
import { authHash, rakp4IcvLength } from './cipher-suites.js';
import { IpmiDecodeError, need } from './errors.js';
import { hmac } from './session-keys.js';

/** Privilege levels (IPMI v2.0 §6.8), as used in Open Session, RAKP 1 and Set Session Privilege Level. */
export const PRIVILEGE = { HIGHEST: 0x00, CALLBACK: 0x01, USER: 0x02, OPERATOR: 0x03, ADMINISTRATOR: 0x04, OEM: 0x05 } as const;
/** RAKP 1 role byte bit 4: look the user up by name only (not by name and privilege). */
export const ROLE_NAME_ONLY_LOOKUP = 0x10;

/** RMCP+ status codes (table 13-15), used by Open Session response and RAKP 2/4. */
export const RAKP_STATUS = {
  OK: 0x00,
  INSUFFICIENT_RESOURCES: 0x01,
  INVALID_SESSION_ID: 0x02,
  INVALID_PAYLOAD_TYPE: 0x03,
  INVALID_AUTH_ALGORITHM: 0x04,
  INVALID_INTEGRITY_ALGORITHM: 0x05,
  NO_MATCHING_AUTH_PAYLOAD: 0x06,
  NO_MATCHING_INTEGRITY_PAYLOAD: 0x07,
  INACTIVE_SESSION_ID: 0x08,
  INVALID_ROLE: 0x09,
  UNAUTHORIZED_ROLE: 0x0a,
  INSUFFICIENT_RESOURCES_FOR_ROLE: 0x0b,
  INVALID_NAME_LENGTH: 0x0c,
  UNAUTHORIZED_NAME: 0x0d,
  UNAUTHORIZED_GUID: 0x0e,
  INVALID_INTEGRITY_CHECK_VALUE: 0x0f,
  INVALID_CONFIDENTIALITY_ALGORITHM: 0x10,
  NO_CIPHER_SUITE_MATCH: 0x11,
  ILLEGAL_PARAMETER: 0x12,
} as const;

const STATUS_TEXT: Record<number, string> = {
  0x00: 'no errors',
  0x01: 'insufficient resources to create a session',
  0x02: 'invalid session ID',
  0x03: 'invalid payload type',
  0x04: 'invalid authentication algorithm',
  0x05: 'invalid integrity algorithm',
  0x06: 'no matching authentication payload',
  0x07: 'no matching integrity payload',
  0x08: 'inactive session ID',
  0x09: 'invalid role',
  0x0a: 'unauthorized role or privilege level requested',
  0x0b: 'insufficient resources to create a session at the requested role',
  0x0c: 'invalid name length',
  0x0d: 'unauthorized name',
  0x0e: 'unauthorized GUID',
  0x0f: 'invalid integrity check value',
  0x10: 'invalid confidentiality algorithm',
  0x11: 'no cipher suite match with proposed security algorithms',
  0x12: 'illegal or unrecognized parameter',
};

/** Human text of an RMCP+ status code. */
export function rakpStatusText(status: number): string {
  return knownRakpStatusText(status) ?? `status 0x${status.toString(16).padStart(2, '0')}`;
}

/** The specification's name of an RMCP+ status code, or undefined for a code it does not name. */
export function knownRakpStatusText(status: number): string | undefined {
  return STATUS_TEXT[status];
}

/** The maximum user name length in RAKP 1. */
export const MAX_USERNAME_LENGTH = 16;

// ---------------------------------------------------------------- Open Session (§13.17, §13.18)

export interface OpenSessionRequest {
  tag: number;
  /** Requested maximum privilege; 0 = highest the user may have. */
  maxPrivilege: number;
  consoleSessionId: number;
  auth: number;
  integrity: number;
  confidentiality: number;
}

export interface OpenSessionResponse {
  tag: number;
  status: number;
  maxPrivilege: number;
  consoleSessionId: number;
  /** Present when status is OK. */
  bmcSessionId?: number;
  auth?: number;
  integrity?: number;
  confidentiality?: number;
}

/** One 8-byte algorithm payload: type, reserved ×2, length 8, algorithm, reserved ×3. */
function algorithmPayload(type: number, alg: number): Buffer {
  return Buffer.from([type, 0, 0, 0x08, alg & 0x3f, 0, 0, 0]);
}

function readAlgorithm(buf: Buffer, offset: number, type: number, what: string): number {
  need(buf, offset, 8, what);
  if (buf[offset] !== type) throw new IpmiDecodeError(`${what}: payload type ${buf[offset]} is not ${type}`);
  return (buf[offset + 4] as number) & 0x3f;
}

export function encodeOpenSessionRequest(req: OpenSessionRequest): Buffer {
  const head = Buffer.alloc(8);
  head[0] = req.tag;
  head[1] = req.maxPrivilege & 0x0f;
  head.writeUInt32LE(req.consoleSessionId >>> 0, 4);
  return Buffer.concat([head, algorithmPayload(0, req.auth), algorithmPayload(1, req.integrity), algorithmPayload(2, req.confidentiality)]);
}

export function decodeOpenSessionRequest(buf: Buffer): OpenSessionRequest {
  need(buf, 0, 32, 'Open Session request');
  return {
    tag: buf[0] as number,
    maxPrivilege: (buf[1] as number) & 0x0f,
    consoleSessionId: buf.readUInt32LE(4),
    auth: readAlgorithm(buf, 8, 0, 'authentication payload'),
    integrity: readAlgorithm(buf, 16, 1, 'integrity payload'),
    confidentiality: readAlgorithm(buf, 24, 2, 'confidentiality payload'),
  };
}

/** Encodes an Open Session response; with a non-zero status only the first 8 bytes are sent. */
export function encodeOpenSessionResponse(res: OpenSessionResponse): Buffer {
  const head = Buffer.alloc(8);
  head[0] = res.tag;
  head[1] = res.status;
  head[2] = res.maxPrivilege & 0x0f;
  head.writeUInt32LE(res.consoleSessionId >>> 0, 4);
  if (res.status !== RAKP_STATUS.OK) return head;
  const ids = Buffer.alloc(4);
  ids.writeUInt32LE((res.bmcSessionId ?? 0) >>> 0, 0);
  return Buffer.concat([head, ids, algorithmPayload(0, res.auth ?? 0), algorithmPayload(1, res.integrity ?? 0), algorithmPayload(2, res.confidentiality ?? 0)]);
}

export function decodeOpenSessionResponse(buf: Buffer): OpenSessionResponse {
  need(buf, 0, 8, 'Open Session response');
  const res: OpenSessionResponse = { tag: buf[0] as number, status: buf[1] as number, maxPrivilege: (buf[2] as number) & 0x0f, consoleSessionId: buf.readUInt32LE(4) };
  if (res.status !== RAKP_STATUS.OK) return res;
  need(buf, 0, 36, 'Open Session response');
  res.bmcSessionId = buf.readUInt32LE(8);
  res.auth = readAlgorithm(buf, 12, 0, 'authentication payload');
  res.integrity = readAlgorithm(buf, 20, 1, 'integrity payload');
  res.confidentiality = readAlgorithm(buf, 28, 2, 'confidentiality payload');
  return res;
}

// ---------------------------------------------------------------- RAKP messages (§13.20..§13.23)

export interface Rakp1 {
  tag: number;
  bmcSessionId: number;
  /** Rm: 16 random bytes of the console. */
  consoleRandom: Buffer;
  /** ROLEm: the whole byte, requested privilege (bits 3:0) plus {@link ROLE_NAME_ONLY_LOOKUP}. */
  role: number;
  username: string;
}

export function encodeRakp1(m: Rakp1): Buffer {
  const name = Buffer.from(m.username, 'latin1');
  if (name.length > MAX_USERNAME_LENGTH) throw new Error(`IPMI user names have at most 16 bytes, got ${name.length}`);
  if (m.consoleRandom.length !== 16) throw new Error('RAKP 1 console random must have 16 bytes');
  const out = Buffer.alloc(28 + name.length);
  out[0] = m.tag;
  out.writeUInt32LE(m.bmcSessionId >>> 0, 4);
  m.consoleRandom.copy(out, 8);
  out[24] = m.role;
  out[27] = name.length;
  name.copy(out, 28);
  return out;
}

export function decodeRakp1(buf: Buffer): Rakp1 {
  need(buf, 0, 28, 'RAKP 1');
  const len = buf[27] as number;
  if (len > MAX_USERNAME_LENGTH) throw new IpmiDecodeError(`RAKP 1 user name length ${len} is over 16`);
  need(buf, 28, len, 'RAKP 1 user name');
  return {
    tag: buf[0] as number,
    bmcSessionId: buf.readUInt32LE(4),
    consoleRandom: Buffer.from(buf.subarray(8, 24)),
    role: buf[24] as number,
    username: buf.subarray(28, 28 + len).toString('latin1'),
  };
}

export interface Rakp2 {
  tag: number;
  status: number;
  consoleSessionId: number;
  /** Present when status is OK. */
  bmcRandom?: Buffer;
  bmcGuid?: Buffer;
  authCode?: Buffer;
}

/** The 8 bytes every RAKP message from 2 on starts with: tag, status, two reserved bytes, a session id. */
function rakpHead(tag: number, status: number, sessionId: number): Buffer {
  const head = Buffer.alloc(8);
  head[0] = tag;
  head[1] = status;
  head.writeUInt32LE(sessionId >>> 0, 4);
  return head;
}

export function encodeRakp2(m: Rakp2): Buffer {
  const head = rakpHead(m.tag, m.status, m.consoleSessionId);
  if (m.status !== RAKP_STATUS.OK) return head;
  return Buffer.concat([head, m.bmcRandom ?? Buffer.alloc(16), m.bmcGuid ?? Buffer.alloc(16), m.authCode ?? Buffer.alloc(0)]);
}

export function decodeRakp2(buf: Buffer): Rakp2 {
  need(buf, 0, 8, 'RAKP 2');
  const m: Rakp2 = { tag: buf[0] as number, status: buf[1] as number, consoleSessionId: buf.readUInt32LE(4) };
  if (m.status !== RAKP_STATUS.OK) return m;
  need(buf, 0, 40, 'RAKP 2');
  m.bmcRandom = Buffer.from(buf.subarray(8, 24));
  m.bmcGuid = Buffer.from(buf.subarray(24, 40));
  m.authCode = Buffer.from(buf.subarray(40));
  return m;
}

export interface Rakp3 {
  tag: number;
  status: number;
  bmcSessionId: number;
  authCode: Buffer;
}

export function encodeRakp3(m: Rakp3): Buffer {
  const head = rakpHead(m.tag, m.status, m.bmcSessionId);
  return Buffer.concat([head, m.authCode]);
}

export function decodeRakp3(buf: Buffer): Rakp3 {
  need(buf, 0, 8, 'RAKP 3');
  return { tag: buf[0] as number, status: buf[1] as number, bmcSessionId: buf.readUInt32LE(4), authCode: Buffer.from(buf.subarray(8)) };
}

export interface Rakp4 {
  tag: number;
  status: number;
  consoleSessionId: number;
  /** The integrity check value; present when status is OK. */
  icv?: Buffer;
}

export function encodeRakp4(m: Rakp4): Buffer {
  const head = rakpHead(m.tag, m.status, m.consoleSessionId);
  if (m.status !== RAKP_STATUS.OK) return head;
  return Buffer.concat([head, m.icv ?? Buffer.alloc(0)]);
}

export function decodeRakp4(buf: Buffer): Rakp4 {
  need(buf, 0, 8, 'RAKP 4');
  const m: Rakp4 = { tag: buf[0] as number, status: buf[1] as number, consoleSessionId: buf.readUInt32LE(4) };
  if (m.status === RAKP_STATUS.OK) m.icv = Buffer.from(buf.subarray(8));
  return m;
}

// ---------------------------------------------------------------- RAKP-HMAC computations (§13.31)

/** Everything both ends know once RAKP 2 is exchanged: the inputs of every RAKP-HMAC. */
export interface RakpContext {
  /** Authentication algorithm number (AUTH_ALG.RAKP_HMAC_SHA1 or _SHA256). */
  auth: number;
  /** SIDm */
  consoleSessionId: number;
  /** SIDc */
  bmcSessionId: number;
  /** Rm */
  consoleRandom: Buffer;
  /** Rc */
  bmcRandom: Buffer;
  /** GUIDc */
  bmcGuid: Buffer;
  /** ROLEm: the whole role byte of RAKP 1 (privilege and name-only lookup bit). */
  role: number;
  /** UNAMEm */
  username: string;
}

/**
 * K_uid, the user key: the password as bytes, zero-padded to 20 bytes. The padding does not change an
 * HMAC (keys shorter than the hash block are zero-padded anyway), so the same key serves SHA-256.
 */
export function userKey(password: string): Buffer {
  const key = Buffer.alloc(20);
  Buffer.from(password, 'latin1').copy(key, 0, 0, 20);
  return key;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

function roleAndName(ctx: RakpContext): Buffer {
  const name = Buffer.from(ctx.username, 'latin1');
  return Buffer.concat([Buffer.from([ctx.role, name.length]), name]);
}

/** RAKP 2 key exchange auth code: HMAC(K_uid, SIDm | SIDc | Rm | Rc | GUIDc | ROLEm | ULENGTHm | UNAMEm). */
export function rakp2AuthCode(ctx: RakpContext, kuid: Buffer): Buffer {
  return hmac(authHash(ctx.auth), kuid, u32(ctx.consoleSessionId), u32(ctx.bmcSessionId), ctx.consoleRandom, ctx.bmcRandom, ctx.bmcGuid, roleAndName(ctx));
}

/** RAKP 3 key exchange auth code: HMAC(K_uid, Rc | SIDm | ROLEm | ULENGTHm | UNAMEm). */
export function rakp3AuthCode(ctx: RakpContext, kuid: Buffer): Buffer {
  return hmac(authHash(ctx.auth), kuid, ctx.bmcRandom, u32(ctx.consoleSessionId), roleAndName(ctx));
}

/** Session integrity key: HMAC(K_g, Rm | Rc | ROLEm | ULENGTHm | UNAMEm); K_g is K_uid when the BMC has no key. */
export function sessionIntegrityKey(ctx: RakpContext, kg: Buffer): Buffer {
  return hmac(authHash(ctx.auth), kg, ctx.consoleRandom, ctx.bmcRandom, roleAndName(ctx));
}

/** RAKP 4 integrity check value: HMAC(SIK, Rm | SIDc | GUIDc), truncated to 12 (SHA-1) or 16 (SHA-256) bytes. */
export function rakp4Icv(ctx: RakpContext, sik: Buffer): Buffer {
  return hmac(authHash(ctx.auth), sik, ctx.consoleRandom, u32(ctx.bmcSessionId), ctx.bmcGuid).subarray(0, rakp4IcvLength(ctx.auth));
}

/** Constant-time comparison of two auth codes of possibly different lengths. */
export function sameCode(a: Buffer | undefined, b: Buffer): boolean {
  return a !== undefined && a.length === b.length && timingSafeEqual(a, b);
}

/** Console side: does RAKP 2's auth code prove the BMC knows the password? */
export function verifyRakp2(ctx: RakpContext, kuid: Buffer, authCode: Buffer | undefined): boolean {
  return sameCode(authCode, rakp2AuthCode(ctx, kuid));
}

/** BMC side: does RAKP 3's auth code prove the console knows the password? */
export function verifyRakp3(ctx: RakpContext, kuid: Buffer, authCode: Buffer): boolean {
  return sameCode(authCode, rakp3AuthCode(ctx, kuid));
}

/** Console side: does RAKP 4's integrity check value match the SIK both ends derived? */
export function verifyRakp4(ctx: RakpContext, sik: Buffer, icv: Buffer | undefined): boolean {
  return sameCode(icv, rakp4Icv(ctx, sik));
}
