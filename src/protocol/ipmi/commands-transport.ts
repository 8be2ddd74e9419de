/**
 * Transport commands (netFn Transport 0x0C, IPMI v2.0 §23): Get LAN Configuration Parameters and the
 * parameters Ingot reports (IP address, its source, MAC, subnet mask).
 */
import { IpmiDecodeError, need } from './errors.js';

/** LAN configuration parameter selectors (table 23-4) Ingot knows. */
export const LAN_PARAM = {
  SET_IN_PROGRESS: 0,
  AUTH_TYPE_SUPPORT: 1,
  AUTH_TYPE_ENABLES: 2,
  IP_ADDRESS: 3,
  IP_ADDRESS_SOURCE: 4,
  MAC_ADDRESS: 5,
  SUBNET_MASK: 6,
  IPV4_HEADER_PARAMS: 7,
  DEFAULT_GATEWAY: 12,
  DEFAULT_GATEWAY_MAC: 13,
  VLAN_ID: 20,
  CIPHER_SUITE_SUPPORT: 22,
  CIPHER_SUITE_ENTRIES: 23,
  CIPHER_SUITE_PRIVILEGES: 24,
} as const;

/** IP address source values (parameter 4). */
export const IP_SOURCE = { UNSPECIFIED: 0, STATIC: 1, DHCP: 2, BIOS: 3, OTHER: 4 } as const;

/** Parameter revision reported by Get LAN Configuration Parameters (0x11: revision 1.1). */
export const LAN_PARAM_REVISION = 0x11;

export interface GetLanConfigRequest {
  channel: number;
  /** Bit 7 of byte 1: only the parameter revision is wanted. */
  revisionOnly: boolean;
  parameter: number;
  setSelector: number;
  blockSelector: number;
}

export function encodeGetLanConfigRequest(r: GetLanConfigRequest): Buffer {
  return Buffer.from([(r.revisionOnly ? 0x80 : 0) | (r.channel & 0x0f), r.parameter, r.setSelector, r.blockSelector]);
}

export function decodeGetLanConfigRequest(data: Buffer): GetLanConfigRequest {
  need(data, 0, 2, 'Get LAN Configuration Parameters request');
  return { channel: (data[0] as number) & 0x0f, revisionOnly: ((data[0] as number) & 0x80) !== 0, parameter: data[1] as number, setSelector: data[2] ?? 0, blockSelector: data[3] ?? 0 };
}

/** Response data: the parameter revision, then the parameter's data (none when only the revision was asked). */
export function encodeGetLanConfigResponse(data: Buffer, revision = LAN_PARAM_REVISION): Buffer {
  return Buffer.concat([Buffer.from([revision]), data]);
}

export function decodeGetLanConfigResponse(data: Buffer): { revision: number; data: Buffer } {
  need(data, 0, 1, 'Get LAN Configuration Parameters response');
  return { revision: data[0] as number, data: Buffer.from(data.subarray(1)) };
}

/** Dotted IPv4 to 4 bytes. */
export function encodeIpv4(ip: string): Buffer {
  const parts = ip.split('.').map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`not an IPv4 address: ${ip}`);
  return Buffer.from(parts);
}

export function decodeIpv4(data: Buffer): string {
  if (data.length < 4) throw new IpmiDecodeError('IPv4 address needs 4 bytes');
  return [...data.subarray(0, 4)].join('.');
}

/** `aa:bb:cc:dd:ee:ff` to 6 bytes. */
export function encodeMac(mac: string): Buffer {
  const parts = mac.split(':');
  if (parts.length !== 6 || parts.some((p) => !/^[0-9a-fA-F]{2}$/.test(p))) throw new Error(`not a MAC address: ${mac}`);
  return Buffer.from(parts.map((p) => parseInt(p, 16)));
}

export function decodeMac(data: Buffer): string {
  if (data.length < 6) throw new IpmiDecodeError('MAC address needs 6 bytes');
  return [...data.subarray(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join(':');
}
