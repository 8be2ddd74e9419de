import { describe, expect, it } from 'vitest';
import { ETHERNET_MAC, HARDWARE_ADDRESS, isHardwareAddress, isMac, isMac48, macFromBootif, normalizeMac, normalizeMacs, parseMac, PORT_ADDRESS } from './mac.js';

const IB = '80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:03:00:a1:b2:c3';

describe('isMac', () => {
  it('takes a 6-octet MAC with colons under every rule, and dashes or IPoIB only when asked', () => {
    for (const rules of [{}, PORT_ADDRESS, ETHERNET_MAC, HARDWARE_ADDRESS]) expect(isMac('52:54:00:AB:cd:ef', rules)).toBe(true);
    expect(isMac('52-54-00-ab-cd-ef')).toBe(false);
    expect(isMac('52-54-00-ab-cd-ef', PORT_ADDRESS)).toBe(false);
    expect(isMac('52-54-00-ab-cd-ef', ETHERNET_MAC)).toBe(true);
    expect(isMac(IB)).toBe(false);
    expect(isMac(IB, ETHERNET_MAC)).toBe(false);
    expect(isMac(IB, PORT_ADDRESS)).toBe(true);
    expect(isMac(IB.replace(/:/g, '-'), HARDWARE_ADDRESS)).toBe(false);
  });

  it('names the two common rules', () => {
    expect(isMac48('52-54-00-ab-cd-ef')).toBe(true);
    expect(isMac48(IB)).toBe(false);
    expect(isHardwareAddress(IB)).toBe(true);
    expect(isHardwareAddress('zz')).toBe(false);
  });
});

describe('parseMac', () => {
  it('gives the normal form or null, without trimming', () => {
    expect(parseMac('52-54-00-AB-CD-EF', ETHERNET_MAC)).toBe('52:54:00:ab:cd:ef');
    expect(parseMac(IB.toUpperCase(), HARDWARE_ADDRESS)).toBe(IB);
    expect(parseMac(' 52:54:00:ab:cd:ef')).toBeNull();
    expect(parseMac('52:54-00:ab:cd:ef', ETHERNET_MAC)).toBeNull();
  });
});

describe('normalizeMac', () => {
  it('lower-cases, trims and uses colons', () => {
    expect(normalizeMac('52:54:00:AB:cd:EF', ETHERNET_MAC)).toBe('52:54:00:ab:cd:ef');
    expect(normalizeMac(' 52-54-00-ab-cd-ef ', ETHERNET_MAC)).toBe('52:54:00:ab:cd:ef');
    expect(normalizeMac(` ${IB.toUpperCase()}`)).toBe(IB);
  });

  it.each(['52:54:00:ab:cd', '52:54:00:ab:cd:ef:01', '52:54-00:ab:cd:ef', '5254.00ab.cdef', '*:*:*:*:*:*', '52:54:00:ab:cd:eg', '', IB])(
    'refuses %j as an Ethernet MAC, naming it',
    (mac) => expect(() => normalizeMac(mac, ETHERNET_MAC)).toThrow(expect.objectContaining({
      name: 'InvalidParameterValue',
      message: expect.stringContaining(`Expected an Ethernet MAC address (six hex octets, e.g. 52:54:00:12:34:56) but received ${JSON.stringify(mac)}.`),
    })),
  );

  it("refuses a port address in Ironic's words, whatever the value's type", () => {
    expect(() => normalizeMac('52-54-00-ab-cd-ef')).toThrow(expect.objectContaining({ name: 'InvalidParameterValue', message: expect.stringContaining('Expected a MAC address but received "52-54-00-ab-cd-ef".') }));
    expect(() => normalizeMac(5)).toThrow(expect.objectContaining({ message: expect.stringContaining('Expected a MAC address but received 5.') }));
    expect(() => normalizeMac(undefined)).toThrow(expect.objectContaining({ message: expect.stringContaining('received undefined.') }));
  });

  it('de-duplicates in first-seen order', () => {
    expect(normalizeMacs(['52:54:00:00:00:02', '52:54:00:00:00:01', '52-54-00-00-00-02'], ETHERNET_MAC)).toEqual(['52:54:00:00:00:02', '52:54:00:00:00:01']);
  });
});

describe('macFromBootif', () => {
  it("reads pxelinux's BOOTIF form and plain Ethernet MACs", () => {
    expect(macFromBootif('01-52-54-00-AB-CD-EF')).toBe('52:54:00:ab:cd:ef');
    expect(macFromBootif(' 52:54:00:ab:cd:ef ')).toBe('52:54:00:ab:cd:ef');
    expect(macFromBootif('52-54-00-ab-cd-ef')).toBe('52:54:00:ab:cd:ef');
  });

  it('gives null for nothing or anything else', () => {
    for (const v of [undefined, null, '', '01-zz', '01:52:54:00:ab:cd:ef', IB]) expect(macFromBootif(v)).toBeNull();
  });
});
