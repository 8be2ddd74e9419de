/**
 * Application commands (netFn App 0x06, IPMI v2.0 §20, §22): Get Device ID, Get Channel Authentication
 * Capabilities, Set Session Privilege Level, Close Session, Get Channel Info, Get Channel Cipher Suites.
 * Each codec handles the data after the command byte (responses: after the completion code).
 */
import { CIPHER_SUITES, type CipherSuite } from './cipher-suites.js';
import { IpmiDecodeError, need } from './errors.js';

/** "The channel this request came in on" (§6.3). */
export const CURRENT_CHANNEL = 0x0e;

// ---------------------------------------------------------------- Get Device ID (§20.1)

export interface DeviceId {
  deviceId: number;
  deviceRevision: number;
  providesSdrs: boolean;
  firmwareMajor: number;
  /** Minor firmware revision as a number 0..99 (BCD on the wire). */
  firmwareMinor: number;
  /** IPMI version byte: 0x02 for 2.0, 0x51 for 1.5 (BCD, minor digit in the high nibble). */
  ipmiVersion: number;
  additionalSupport: number;
  /** IANA enterprise number of the manufacturer (20 bits). */
  manufacturerId: number;
  productId: number;
  auxFirmware?: Buffer;
}

export function encodeDeviceIdResponse(d: DeviceId): Buffer {
  const out = Buffer.alloc(11);
  out[0] = d.deviceId;
  out[1] = (d.providesSdrs ? 0x80 : 0) | (d.deviceRevision & 0x0f);
  out[2] = d.firmwareMajor & 0x7f;
  out[3] = (Math.floor(d.firmwareMinor / 10) << 4) | (d.firmwareMinor % 10);
  out[4] = d.ipmiVersion;
  out[5] = d.additionalSupport;
  out.writeUIntLE(d.manufacturerId & 0xfffff, 6, 3);
  out.writeUInt16LE(d.productId, 9);
  return d.auxFirmware ? Buffer.concat([out, d.auxFirmware.subarray(0, 4)]) : out;
}

export function decodeDeviceIdResponse(data: Buffer): DeviceId {
  need(data, 0, 11, 'Get Device ID response');
  const minor = data[3] as number;
  const d: DeviceId = {
    deviceId: data[0] as number,
    deviceRevision: (data[1] as number) & 0x0f,
    providesSdrs: ((data[1] as number) & 0x80) !== 0,
    firmwareMajor: (data[2] as number) & 0x7f,
    firmwareMinor: (minor >> 4) * 10 + (minor & 0x0f),
    ipmiVersion: data[4] as number,
    additionalSupport: data[5] as number,
    manufacturerId: data.readUIntLE(6, 3) & 0xfffff,
    productId: data.readUInt16LE(9),
  };
  if (data.length >= 15) d.auxFirmware = Buffer.from(data.subarray(11, 15));
  return d;
}

// ---------------------------------------------------------------- Get Channel Authentication Capabilities (§22.13)

export interface ChannelAuthCapsRequest {
  channel: number;
  privilege: number;
  /** Bit 7 of byte 1: ask for the IPMI v2.0 extended data (RMCP+ support). */
  v2: boolean;
}

export function encodeChannelAuthCapsRequest(r: ChannelAuthCapsRequest): Buffer {
  return Buffer.from([(r.v2 ? 0x80 : 0) | (r.channel & 0x0f), r.privilege & 0x0f]);
}

export function decodeChannelAuthCapsRequest(data: Buffer): ChannelAuthCapsRequest {
  need(data, 0, 2, 'Get Channel Authentication Capabilities request');
  return { channel: (data[0] as number) & 0x0f, v2: ((data[0] as number) & 0x80) !== 0, privilege: (data[1] as number) & 0x0f };
}

/** Auth type support bits of byte 2 (v1.5 authentication types). */
export const AUTH_TYPE_SUPPORT = { NONE: 0x01, MD2: 0x02, MD5: 0x04, PASSWORD: 0x10, OEM: 0x20 } as const;

export interface ChannelAuthCaps {
  channel: number;
  /** v1.5 auth types supported ({@link AUTH_TYPE_SUPPORT} bits). */
  authTypes: number;
  /** Bit 7 of byte 2: the extended (v2.0) data below is valid. */
  extended: boolean;
  kgSet: boolean;
  perMessageAuthDisabled: boolean;
  userLevelAuthDisabled: boolean;
  nonNullUsernames: boolean;
  nullUsernames: boolean;
  anonymousLogin: boolean;
  supportsV15: boolean;
  supportsV20: boolean;
  oemId: number;
  oemAux: number;
}

export function encodeChannelAuthCapsResponse(c: ChannelAuthCaps): Buffer {
  const out = Buffer.alloc(8);
  out[0] = c.channel & 0x0f;
  out[1] = (c.extended ? 0x80 : 0) | (c.authTypes & 0x3f);
  out[2] =
    (c.kgSet ? 0x20 : 0) |
    (c.perMessageAuthDisabled ? 0x10 : 0) |
    (c.userLevelAuthDisabled ? 0x08 : 0) |
    (c.nonNullUsernames ? 0x04 : 0) |
    (c.nullUsernames ? 0x02 : 0) |
    (c.anonymousLogin ? 0x01 : 0);
  out[3] = (c.supportsV20 ? 0x02 : 0) | (c.supportsV15 ? 0x01 : 0);
  out.writeUIntLE(c.oemId, 4, 3);
  out[7] = c.oemAux;
  return out;
}

export function decodeChannelAuthCapsResponse(data: Buffer): ChannelAuthCaps {
  need(data, 0, 8, 'Get Channel Authentication Capabilities response');
  const b2 = data[1] as number;
  const b3 = data[2] as number;
  const b4 = data[3] as number;
  return {
    channel: (data[0] as number) & 0x0f,
    authTypes: b2 & 0x3f,
    extended: (b2 & 0x80) !== 0,
    kgSet: (b3 & 0x20) !== 0,
    perMessageAuthDisabled: (b3 & 0x10) !== 0,
    userLevelAuthDisabled: (b3 & 0x08) !== 0,
    nonNullUsernames: (b3 & 0x04) !== 0,
    nullUsernames: (b3 & 0x02) !== 0,
    anonymousLogin: (b3 & 0x01) !== 0,
    supportsV15: (b4 & 0x01) !== 0,
    supportsV20: (b4 & 0x02) !== 0,
    oemId: data.readUIntLE(4, 3),
    oemAux: data[7] as number,
  };
}

// ---------------------------------------------------------------- Set Session Privilege Level (§22.18), Close Session (§22.19)

export function encodeSetSessionPrivilegeRequest(privilege: number): Buffer {
  return Buffer.from([privilege & 0x0f]);
}

export function decodeSetSessionPrivilegeRequest(data: Buffer): number {
  need(data, 0, 1, 'Set Session Privilege Level request');
  return (data[0] as number) & 0x0f;
}

/** Response data: the new privilege level. */
export function encodeSetSessionPrivilegeResponse(privilege: number): Buffer {
  return Buffer.from([privilege & 0x0f]);
}

export function decodeSetSessionPrivilegeResponse(data: Buffer): number {
  need(data, 0, 1, 'Set Session Privilege Level response');
  return (data[0] as number) & 0x0f;
}

/** Close Session request: the BMC's session id of the session to close. */
export function encodeCloseSessionRequest(sessionId: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(sessionId >>> 0, 0);
  return out;
}

export function decodeCloseSessionRequest(data: Buffer): number {
  need(data, 0, 4, 'Close Session request');
  return data.readUInt32LE(0);
}

// ---------------------------------------------------------------- Get Channel Info (§22.24)

/** Channel medium type 802.3 LAN (table 6-3). */
export const CHANNEL_MEDIUM_LAN = 0x04;
/** Channel protocol type IPMB-1.0, which LAN channels report (table 6-2). */
export const CHANNEL_PROTOCOL_IPMB = 0x01;
/** The IPMI Forum's IANA number (7154), used in Get Channel Info. */
export const IPMI_FORUM_IANA = 7154;

export interface ChannelInfo {
  channel: number;
  medium: number;
  protocol: number;
  /** Bits 7:6 of byte 4: 0 session-less, 1 single, 2 multi, 3 session-based. */
  sessionSupport: number;
  activeSessions: number;
  vendorId: number;
  aux: Buffer;
}

export function encodeChannelInfoRequest(channel: number): Buffer {
  return Buffer.from([channel & 0x0f]);
}

export function encodeChannelInfoResponse(c: ChannelInfo): Buffer {
  const out = Buffer.alloc(9);
  out[0] = c.channel & 0x0f;
  out[1] = c.medium & 0x7f;
  out[2] = c.protocol & 0x1f;
  out[3] = ((c.sessionSupport & 0x03) << 6) | (c.activeSessions & 0x3f);
  out.writeUIntLE(c.vendorId, 4, 3);
  c.aux.copy(out, 7, 0, 2);
  return out;
}

export function decodeChannelInfoResponse(data: Buffer): ChannelInfo {
  need(data, 0, 9, 'Get Channel Info response');
  return {
    channel: (data[0] as number) & 0x0f,
    medium: (data[1] as number) & 0x7f,
    protocol: (data[2] as number) & 0x1f,
    sessionSupport: (data[3] as number) >> 6,
    activeSessions: (data[3] as number) & 0x3f,
    vendorId: data.readUIntLE(4, 3),
    aux: Buffer.from(data.subarray(7, 9)),
  };
}

// ---------------------------------------------------------------- Get Channel Cipher Suites (§22.15)

export interface CipherSuitesRequest {
  channel: number;
  payloadType: number;
  /** Bit 7 of byte 3: list algorithms by cipher suite (the form every tool asks for). */
  bySuite: boolean;
  /** Which 16-byte block of the record list to return. */
  listIndex: number;
}

export function encodeCipherSuitesRequest(r: CipherSuitesRequest): Buffer {
  return Buffer.from([r.channel & 0x0f, r.payloadType & 0x3f, (r.bySuite ? 0x80 : 0) | (r.listIndex & 0x3f)]);
}

export function decodeCipherSuitesRequest(data: Buffer): CipherSuitesRequest {
  need(data, 0, 3, 'Get Channel Cipher Suites request');
  return { channel: (data[0] as number) & 0x0f, payloadType: (data[1] as number) & 0x3f, bySuite: ((data[2] as number) & 0x80) !== 0, listIndex: (data[2] as number) & 0x3f };
}

/**
 * The cipher suite record list (§22.15): per suite 0xC0 (standard suite record), the suite id,
 * then the authentication (tag 0b00), integrity (0b01) and confidentiality (0b10) algorithm bytes.
 */
export function cipherSuiteRecords(suites: CipherSuite[] = Object.values(CIPHER_SUITES)): Buffer {
  return Buffer.concat(suites.map((s) => Buffer.from([0xc0, s.id, 0x00 | s.auth, 0x40 | s.integrity, 0x80 | s.confidentiality])));
}

/** Response data for one list index: the channel, then up to 16 bytes of the record list. */
export function encodeCipherSuitesResponse(channel: number, records: Buffer, listIndex: number): Buffer {
  return Buffer.concat([Buffer.from([channel & 0x0f]), records.subarray(listIndex * 16, listIndex * 16 + 16)]);
}

/** Parses a whole record list (the concatenated blocks) into the standard suites it names. */
export function decodeCipherSuiteRecords(records: Buffer): CipherSuite[] {
  const suites: CipherSuite[] = [];
  let i = 0;
  while (i < records.length) {
    const start = records[i] as number;
    if (start !== 0xc0 && start !== 0xc1) throw new IpmiDecodeError(`cipher suite record starts with 0x${start.toString(16)}`);
    const id = records[i + 1];
    if (id === undefined) throw new IpmiDecodeError('cipher suite record without id');
    i += start === 0xc1 ? 5 : 2; // OEM records carry a 3-byte IANA
    const suite: CipherSuite = { id, auth: -1, integrity: -1, confidentiality: -1 };
    while (i < records.length && ((records[i] as number) & 0xc0) !== 0xc0) {
      const b = records[i] as number;
      if ((b & 0xc0) === 0x00) suite.auth = b & 0x3f;
      else if ((b & 0xc0) === 0x40) suite.integrity = b & 0x3f;
      else suite.confidentiality = b & 0x3f;
      i++;
    }
    if (start === 0xc0) suites.push(suite);
  }
  return suites;
}
