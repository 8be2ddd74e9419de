import { describe, expect, it } from 'vitest';
import {
  cipherSuiteRecords,
  decodeChannelAuthCapsResponse,
  decodeCipherSuiteRecords,
  decodeDeviceIdResponse,
  encodeChannelAuthCapsResponse,
  encodeCipherSuitesResponse,
  encodeDeviceIdResponse,
  type ChannelAuthCaps,
  type DeviceId,
} from './commands-app.js';
import { BOOT_DEVICE, decodeBootFlags, decodeChassisStatusResponse, decodeGetBootOptionResponse, encodeBootFlags, encodeChassisStatusResponse, encodeGetBootOptionResponse } from './commands-chassis.js';
import { decodeIpv4, decodeMac, encodeIpv4, encodeMac } from './commands-transport.js';
import { completionText } from './commands.js';

describe('IPMI command codecs', () => {
  it('encodes Get Device ID with a BCD minor revision and a 20-bit manufacturer', () => {
    const d: DeviceId = { deviceId: 0x20, deviceRevision: 1, providesSdrs: false, firmwareMajor: 2, firmwareMinor: 47, ipmiVersion: 0x02, additionalSupport: 0x80, manufacturerId: 32473, productId: 1, auxFirmware: Buffer.from([1, 2, 3, 4]) };
    const wire = encodeDeviceIdResponse(d);
    expect(wire.toString('hex')).toBe('2001024702' + '80' + 'd97e00' + '0100' + '01020304');
    expect(decodeDeviceIdResponse(wire)).toEqual(d);
  });

  it('encodes the channel authentication capabilities bits', () => {
    const caps: ChannelAuthCaps = { channel: 1, authTypes: 0, extended: true, kgSet: false, perMessageAuthDisabled: false, userLevelAuthDisabled: false, nonNullUsernames: true, nullUsernames: false, anonymousLogin: false, supportsV15: false, supportsV20: true, oemId: 0, oemAux: 0 };
    const wire = encodeChannelAuthCapsResponse(caps);
    expect(wire.toString('hex')).toBe('0180040200000000');
    expect(decodeChannelAuthCapsResponse(wire)).toEqual(caps);
  });

  it('lists cipher suites 3 and 17 as records split in 16-byte blocks', () => {
    const records = cipherSuiteRecords();
    expect(records.toString('hex')).toBe('c003014181' + 'c011034481');
    expect(encodeCipherSuitesResponse(1, records, 0).toString('hex')).toBe('01' + 'c003014181c011034481');
    expect(encodeCipherSuitesResponse(1, records, 1)).toHaveLength(1);
    expect(decodeCipherSuiteRecords(records)).toEqual([
      { id: 3, auth: 1, integrity: 1, confidentiality: 1 },
      { id: 17, auth: 3, integrity: 4, confidentiality: 1 },
    ]);
  });

  it('encodes boot flags: valid, persistent, EFI and the device in bits 5:2', () => {
    expect(encodeBootFlags({ valid: true, persistent: false, efi: false, device: BOOT_DEVICE.PXE }).toString('hex')).toBe('8004000000');
    expect(encodeBootFlags({ valid: true, persistent: true, efi: true, device: BOOT_DEVICE.DISK }).toString('hex')).toBe('e008000000');
    expect(encodeBootFlags({ valid: true, persistent: false, efi: true, device: BOOT_DEVICE.CDROM }).toString('hex')).toBe('a014000000');
    expect(encodeBootFlags({ valid: true, persistent: false, efi: false, device: BOOT_DEVICE.BIOS_SETUP }).toString('hex')).toBe('8018000000');
    const f = decodeBootFlags(Buffer.from('e0bc000000', 'hex'));
    expect(f).toMatchObject({ valid: true, persistent: true, efi: true, device: BOOT_DEVICE.FLOPPY });
    const wire = encodeGetBootOptionResponse({ version: 1, parameter: 5, invalid: false, data: Buffer.from('8004000000', 'hex') });
    expect(wire.toString('hex')).toBe('01058004000000');
    expect(decodeGetBootOptionResponse(wire)).toMatchObject({ version: 1, parameter: 5, invalid: false });
  });

  it('round-trips chassis status and LAN values', () => {
    const s = { powerOn: true, powerOverload: false, interlock: false, powerFault: false, powerControlFault: false, restorePolicy: 2, lastPowerEvent: 0x10, misc: 0, frontPanel: 0 };
    expect(encodeChassisStatusResponse(s).toString('hex')).toBe('41100000');
    expect(decodeChassisStatusResponse(encodeChassisStatusResponse(s))).toEqual(s);
    expect(decodeIpv4(encodeIpv4('10.1.2.3'))).toBe('10.1.2.3');
    expect(() => encodeIpv4('10.1.2')).toThrow();
    expect(decodeMac(encodeMac('02:AB:cd:00:01:ff'))).toBe('02:ab:cd:00:01:ff');
    expect(completionText(0xc1)).toBe('invalid command');
    expect(completionText(0x42)).toBe('completion code 0x42');
  });
});
