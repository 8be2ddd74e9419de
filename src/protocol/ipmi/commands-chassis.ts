/**
 * Chassis commands (netFn Chassis 0x00, IPMI v2.0 §28): Get Chassis Status, Chassis Control and
 * Set/Get System Boot Options with the boot flags parameter.
 */
import { IpmiDecodeError, need } from './errors.js';

// ---------------------------------------------------------------- Get Chassis Status (§28.2)

/** Power restore policy, bits 6:5 of the current power state byte. */
export const POWER_RESTORE_POLICY = { ALWAYS_OFF: 0, PREVIOUS: 1, ALWAYS_ON: 2, UNKNOWN: 3 } as const;

export interface ChassisStatus {
  powerOn: boolean;
  powerOverload: boolean;
  interlock: boolean;
  powerFault: boolean;
  powerControlFault: boolean;
  restorePolicy: number;
  /** Last power event byte (bit 4: last power on was by an IPMI command). */
  lastPowerEvent: number;
  /** Misc chassis state byte (intrusion, lockout, drive/cooling fault, identify). */
  misc: number;
  /** Front panel button capabilities byte, when the BMC sends it. */
  frontPanel?: number;
}

export function encodeChassisStatusResponse(s: ChassisStatus): Buffer {
  const b1 =
    (s.powerOn ? 0x01 : 0) | (s.powerOverload ? 0x02 : 0) | (s.interlock ? 0x04 : 0) | (s.powerFault ? 0x08 : 0) | (s.powerControlFault ? 0x10 : 0) | ((s.restorePolicy & 0x03) << 5);
  const out = [b1, s.lastPowerEvent, s.misc];
  if (s.frontPanel !== undefined) out.push(s.frontPanel);
  return Buffer.from(out);
}

export function decodeChassisStatusResponse(data: Buffer): ChassisStatus {
  need(data, 0, 3, 'Get Chassis Status response');
  const b1 = data[0] as number;
  const s: ChassisStatus = {
    powerOn: (b1 & 0x01) !== 0,
    powerOverload: (b1 & 0x02) !== 0,
    interlock: (b1 & 0x04) !== 0,
    powerFault: (b1 & 0x08) !== 0,
    powerControlFault: (b1 & 0x10) !== 0,
    restorePolicy: (b1 >> 5) & 0x03,
    lastPowerEvent: data[1] as number,
    misc: data[2] as number,
  };
  if (data.length >= 4) s.frontPanel = data[3] as number;
  return s;
}

// ---------------------------------------------------------------- Chassis Control (§28.3)

/** Chassis Control request values (table 28-4). */
export const CHASSIS_CONTROL = { POWER_DOWN: 0x00, POWER_UP: 0x01, POWER_CYCLE: 0x02, HARD_RESET: 0x03, PULSE_DIAG: 0x04, SOFT_SHUTDOWN: 0x05 } as const;

export function encodeChassisControlRequest(control: number): Buffer {
  return Buffer.from([control & 0x0f]);
}

export function decodeChassisControlRequest(data: Buffer): number {
  need(data, 0, 1, 'Chassis Control request');
  return (data[0] as number) & 0x0f;
}

// ---------------------------------------------------------------- System Boot Options (§28.12, §28.13, table 28-14)

/** Boot option parameter selectors Ingot handles. */
export const BOOT_PARAM = { SET_IN_PROGRESS: 0, SERVICE_PARTITION_SELECTOR: 1, SERVICE_PARTITION_SCAN: 2, BMC_BOOT_FLAG_VALID_CLEARING: 3, BOOT_INFO_ACK: 4, BOOT_FLAGS: 5, BOOT_INITIATOR_INFO: 6, BOOT_INITIATOR_MAILBOX: 7 } as const;

export interface SetBootOptionRequest {
  parameter: number;
  /** Bit 7 of byte 1: mark the parameter invalid/locked. */
  markInvalid: boolean;
  data: Buffer;
}

export function encodeSetBootOptionRequest(r: SetBootOptionRequest): Buffer {
  return Buffer.concat([Buffer.from([(r.markInvalid ? 0x80 : 0) | (r.parameter & 0x7f)]), r.data]);
}

export function decodeSetBootOptionRequest(data: Buffer): SetBootOptionRequest {
  need(data, 0, 1, 'Set System Boot Options request');
  return { parameter: (data[0] as number) & 0x7f, markInvalid: ((data[0] as number) & 0x80) !== 0, data: Buffer.from(data.subarray(1)) };
}

export interface GetBootOptionRequest {
  parameter: number;
  setSelector: number;
  blockSelector: number;
}

export function encodeGetBootOptionRequest(r: GetBootOptionRequest): Buffer {
  return Buffer.from([r.parameter & 0x7f, r.setSelector, r.blockSelector]);
}

export function decodeGetBootOptionRequest(data: Buffer): GetBootOptionRequest {
  need(data, 0, 1, 'Get System Boot Options request');
  return { parameter: (data[0] as number) & 0x7f, setSelector: data[1] ?? 0, blockSelector: data[2] ?? 0 };
}

export interface GetBootOptionResponse {
  /** Parameter version, 1. */
  version: number;
  parameter: number;
  /** Bit 7 of byte 2: the parameter is marked invalid/locked. */
  invalid: boolean;
  data: Buffer;
}

export function encodeGetBootOptionResponse(r: GetBootOptionResponse): Buffer {
  return Buffer.concat([Buffer.from([r.version & 0x0f, (r.invalid ? 0x80 : 0) | (r.parameter & 0x7f)]), r.data]);
}

export function decodeGetBootOptionResponse(data: Buffer): GetBootOptionResponse {
  need(data, 0, 2, 'Get System Boot Options response');
  return { version: (data[0] as number) & 0x0f, parameter: (data[1] as number) & 0x7f, invalid: ((data[1] as number) & 0x80) !== 0, data: Buffer.from(data.subarray(2)) };
}

/** Boot device selector values, bits 5:2 of boot flags byte 2. */
export const BOOT_DEVICE = { NONE: 0x0, PXE: 0x1, DISK: 0x2, DISK_SAFE: 0x3, DIAG: 0x4, CDROM: 0x5, BIOS_SETUP: 0x6, REMOTE_FLOPPY: 0x7, REMOTE_CDROM: 0x8, REMOTE_MEDIA: 0x9, REMOTE_DISK: 0xb, FLOPPY: 0xf } as const;

/** Boot flags, parameter 5 (5 data bytes). */
export interface BootFlags {
  /** Byte 1 bit 7: the flags are valid (an override is requested). */
  valid: boolean;
  /** Byte 1 bit 6: applies to all future boots, not only the next one. */
  persistent: boolean;
  /** Byte 1 bit 5: boot in EFI mode rather than PC-compatible (legacy). */
  efi: boolean;
  /** Byte 2 bits 5:2, one of {@link BOOT_DEVICE}. */
  device: number;
  /** Bytes 2..5 as sent, for bits Ingot does not interpret (CMOS clear, lockouts, BIOS verbosity…). */
  raw: Buffer;
}

export function encodeBootFlags(f: Omit<BootFlags, 'raw'> & { raw?: Buffer }): Buffer {
  const out = Buffer.alloc(5);
  if (f.raw) f.raw.copy(out, 0, 0, 5);
  out[0] = (f.valid ? 0x80 : 0) | (f.persistent ? 0x40 : 0) | (f.efi ? 0x20 : 0) | ((out[0] as number) & 0x1f);
  out[1] = ((out[1] as number) & ~0x3c & 0xff) | ((f.device & 0x0f) << 2);
  return out;
}

export function decodeBootFlags(data: Buffer): BootFlags {
  if (data.length < 2) throw new IpmiDecodeError(`boot flags need 5 bytes, got ${data.length}`);
  const b1 = data[0] as number;
  const raw = Buffer.alloc(5);
  data.copy(raw, 0, 0, 5);
  return { valid: (b1 & 0x80) !== 0, persistent: (b1 & 0x40) !== 0, efi: (b1 & 0x20) !== 0, device: ((data[1] as number) >> 2) & 0x0f, raw };
}
