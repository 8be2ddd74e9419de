/**
 * What a machine's emulated BMC says about itself over IPMI: its GUID, LAN MAC address and IP settings,
 * and the device identity of Get Device ID. All derived stably from the machine, so repeated runs agree.
 */
import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { DeviceId } from '../../protocol/ipmi/commands-app.js';
import type { Machine } from '../machine.js';

/**
 * IANA enterprise number reported as the manufacturer: 32473, reserved for documentation and examples
 * (RFC 5612), so no tool mistakes the emulator for a real vendor's BMC.
 */
export const EMULATOR_MANUFACTURER_ID = 32473;

/** The Get Device ID answer of every emulated BMC: an IPMI 2.0 chassis device, firmware 1.0. */
export const EMULATOR_DEVICE_ID: Readonly<DeviceId> = Object.freeze({
  deviceId: 0x20,
  deviceRevision: 1,
  providesSdrs: false,
  firmwareMajor: 1,
  firmwareMinor: 0,
  ipmiVersion: 0x02,
  additionalSupport: 0x80, // chassis device only: no SDR, SEL or FRU commands are emulated
  manufacturerId: EMULATOR_MANUFACTURER_ID,
  productId: 0x0001,
  auxFirmware: Buffer.from([0, 0, 0, 0]),
});

/** The BMC's LAN MAC: locally administered (02:…), five bytes of SHA-256 of the machine name. */
export function bmcMac(name: string): string {
  const digest = createHash('sha256').update(`ipmi-bmc:${name}`).digest();
  return ['02', ...[...digest.subarray(0, 5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

/** The BMC GUID (RAKP 2, Get Device GUID): the system UUID's 16 bytes, least significant byte first. */
export function bmcGuid(machine: Machine): Buffer {
  const hex = machine.profile.system_uuid.replace(/-/g, '');
  const bytes = /^[0-9a-fA-F]{32}$/.test(hex) ? Buffer.from(hex, 'hex') : createHash('sha256').update(machine.name).digest().subarray(0, 16);
  return Buffer.from(bytes).reverse();
}

/** The IPv4 address reported by Get LAN Configuration Parameters: the bound host, or 0.0.0.0 when that is not IPv4. */
export function lanAddress(host: string): string {
  return isIPv4(host) ? host : '0.0.0.0';
}

/** A plausible subnet mask for `ip`: /8 for loopback, /24 otherwise. */
export function lanNetmask(ip: string): string {
  return ip.startsWith('127.') ? '255.0.0.0' : '255.255.255.0';
}
