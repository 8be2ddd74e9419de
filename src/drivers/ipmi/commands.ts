/**
 * The chassis and transport commands the `ipmi` hardware type sends, built and read with the shared
 * codec (src/protocol/ipmi). Sections refer to the IPMI v2.0 rev 1.1 specification.
 */
import type { BootDevice } from '../../domain/node.js';
import {
  BOOT_DEVICE, BOOT_PARAM, CHASSIS_CONTROL, CMD, decodeBootFlags, decodeDeviceIdResponse, decodeChassisStatusResponse, decodeGetBootOptionResponse,
  decodeGetLanConfigResponse, decodeIpv4, encodeBootFlags, encodeChassisControlRequest, encodeGetBootOptionRequest,
  encodeGetLanConfigRequest, encodeSetBootOptionRequest, LAN_PARAM, NETFN,
} from '../../protocol/ipmi/index.js';
import { errorMessage } from '../../shared/errors.js';
import { IpmiError } from './errors.js';
import type { IpmiCommand } from './requester.js';

export { CHASSIS_CONTROL };

/** Get Device ID (§20.1). */
export const GET_DEVICE_ID: IpmiCommand = { name: 'Get Device ID', netFn: NETFN.APP, cmd: CMD.APP.GET_DEVICE_ID };

/** Manufacturer (IANA enterprise number), product and firmware revision of a Get Device ID answer. */
export function readDeviceId(answer: Uint8Array): { manufacturer_id: number; product_id: number; firmware: string; ipmi_version: string } {
  const d = decodeDeviceIdResponse(Buffer.from(answer));
  return {
    manufacturer_id: d.manufacturerId,
    product_id: d.productId,
    firmware: `${d.firmwareMajor}.${String(d.firmwareMinor).padStart(2, '0')}`,
    ipmi_version: `${d.ipmiVersion & 0x0f}.${d.ipmiVersion >> 4}`,
  };
}

/** Get Chassis Status (§28.2). */
export const GET_CHASSIS_STATUS: IpmiCommand = { name: 'Get Chassis Status', netFn: NETFN.CHASSIS, cmd: CMD.CHASSIS.GET_CHASSIS_STATUS };

/** Chassis Control (§28.3) with one of {@link CHASSIS_CONTROL}. */
export function chassisControl(action: number): IpmiCommand {
  return { name: 'Chassis Control', netFn: NETFN.CHASSIS, cmd: CMD.CHASSIS.CHASSIS_CONTROL, data: encodeChassisControlRequest(action) };
}

/** True when a Get Chassis Status answer says the system power is on. */
export function powerIsOn(status: Uint8Array): boolean {
  return decodeChassisStatusResponse(Buffer.from(status)).powerOn;
}

/** Ironic's boot devices and their boot flags device selectors (§28.13 table 28-14). */
const SELECTORS: ReadonlyArray<[BootDevice, number]> = [
  ['pxe', BOOT_DEVICE.PXE],
  ['disk', BOOT_DEVICE.DISK],
  ['safe', BOOT_DEVICE.DISK_SAFE],
  ['cdrom', BOOT_DEVICE.CDROM],
  ['bios', BOOT_DEVICE.BIOS_SETUP],
  ['floppy', BOOT_DEVICE.FLOPPY],
];

/** Set System Boot Options, boot flags (parameter 5): valid, optionally persistent and EFI. */
export function setBootFlags(device: BootDevice, persistent: boolean, efi: boolean): IpmiCommand {
  const selector = SELECTORS.find(([d]) => d === device)?.[1];
  if (selector === undefined) throw new Error(`no IPMI boot device selector for ${device}`);
  return {
    name: 'Set System Boot Options (boot flags)',
    netFn: NETFN.CHASSIS,
    cmd: CMD.CHASSIS.SET_SYSTEM_BOOT_OPTIONS,
    data: encodeSetBootOptionRequest({ parameter: BOOT_PARAM.BOOT_FLAGS, markInvalid: false, data: encodeBootFlags({ valid: true, persistent, efi, device: selector }) }),
  };
}

/**
 * Set System Boot Options parameter 3, "BMC boot flag valid bit clearing" (§28.13), value 0x08: the raw
 * command Ironic sends before setting a boot device so the BMC keeps the flags past its 60 s timeout
 * (ironic/drivers/modules/ipmitool.py, `ipmi_disable_boot_timeout`). BMCs that lack the parameter refuse
 * it; that is harmless.
 */
export const KEEP_BOOT_FLAGS: IpmiCommand = {
  name: 'Set System Boot Options (valid bit clearing)',
  netFn: NETFN.CHASSIS,
  cmd: CMD.CHASSIS.SET_SYSTEM_BOOT_OPTIONS,
  data: encodeSetBootOptionRequest({ parameter: BOOT_PARAM.BMC_BOOT_FLAG_VALID_CLEARING, markInvalid: false, data: Buffer.from([0x08]) }),
};

/** Get System Boot Options, boot flags (parameter 5). */
export const GET_BOOT_FLAGS: IpmiCommand = {
  name: 'Get System Boot Options (boot flags)',
  netFn: NETFN.CHASSIS,
  cmd: CMD.CHASSIS.GET_SYSTEM_BOOT_OPTIONS,
  data: encodeGetBootOptionRequest({ parameter: BOOT_PARAM.BOOT_FLAGS, setSelector: 0, blockSelector: 0 }),
};

/** The boot device, persistence and EFI bit of a Get System Boot Options parameter 5 answer. */
export function readBootFlags(answer: Uint8Array): { device: BootDevice | null; persistent: boolean; efi: boolean } {
  const res = decodeGetBootOptionResponse(Buffer.from(answer));
  if (res.parameter !== BOOT_PARAM.BOOT_FLAGS) throw new IpmiError('protocol', errorMessage('ipmiBootFlagsMissing', { parameter: res.parameter }));
  const flags = decodeBootFlags(res.data);
  return { device: SELECTORS.find(([, s]) => s === flags.device)?.[0] ?? null, persistent: flags.persistent, efi: flags.efi };
}

/** Get LAN Configuration Parameters (§23.2), IP address, of `channel` (0x0E: the channel the request came in on). */
export function getLanIpAddress(channel: number): IpmiCommand {
  return {
    name: 'Get LAN Configuration Parameters (IP address)',
    netFn: NETFN.TRANSPORT,
    cmd: CMD.TRANSPORT.GET_LAN_CONFIG,
    data: encodeGetLanConfigRequest({ channel, revisionOnly: false, parameter: LAN_PARAM.IP_ADDRESS, setSelector: 0, blockSelector: 0 }),
  };
}

/** The dotted IPv4 address of a Get LAN Configuration Parameters IP address answer. */
export function readLanIpAddress(answer: Uint8Array): string {
  return decodeIpv4(decodeGetLanConfigResponse(Buffer.from(answer)).data);
}
