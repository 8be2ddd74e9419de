import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../domain/node.js';
import { bmcKey, parseIpmiDriverInfo } from './driver-info.js';

describe('parseIpmiDriverInfo', () => {
  it('applies the defaults', () => {
    expect(parseIpmiDriverInfo({ ipmi_address: '10.0.0.5' })).toEqual({
      address: '10.0.0.5', port: 623, username: '', password: '', cipherSuite: null, privLevel: 'ADMINISTRATOR',
    });
  });

  it('reads every key, accepting numbers as strings as Ironic clients send them', () => {
    expect(
      parseIpmiDriverInfo({
        ipmi_address: ' bmc.example ', ipmi_port: '6230', ipmi_username: 'admin', ipmi_password: 'secret',
        ipmi_cipher_suite: '3', ipmi_priv_level: 'operator', ipmi_bridging: 'no', ipmi_protocol_version: '2.0',
      }),
    ).toEqual({ address: 'bmc.example', port: 6230, username: 'admin', password: 'secret', cipherSuite: 3, privLevel: 'OPERATOR' });
    expect(parseIpmiDriverInfo({ ipmi_address: 'h', ipmi_cipher_suite: 17 }).cipherSuite).toBe(17);
  });

  it('names the missing address', () => {
    for (const info of [{}, { ipmi_address: '' }, { ipmi_address: null }] as JsonObject[]) {
      expect(() => parseIpmiDriverInfo(info)).toThrow(expect.objectContaining({ code: 'MissingParameterValue', message: expect.stringContaining('ipmi_address') }));
    }
  });

  it.each([
    [{ ipmi_port: 0 }, 'ipmi_port'],
    [{ ipmi_port: 70000 }, 'ipmi_port'],
    [{ ipmi_port: 'abc' }, 'ipmi_port'],
    [{ ipmi_cipher_suite: 1 }, 'ipmi_cipher_suite'],
    [{ ipmi_cipher_suite: '17a' }, 'ipmi_cipher_suite'],
    [{ ipmi_priv_level: 'CALLBACK' }, 'ipmi_priv_level'],
    [{ ipmi_bridging: 'single' }, 'ipmi_bridging'],
    [{ ipmi_bridging: 'dual' }, 'ipmi_bridging'],
    [{ ipmi_protocol_version: '1.5' }, 'ipmi_protocol_version'],
    [{ ipmi_username: 'a'.repeat(17) }, 'ipmi_username'],
    [{ ipmi_password: 'p'.repeat(21) }, 'ipmi_password'],
    [{ ipmi_username: { x: 1 } }, 'ipmi_username'],
    [{ ipmi_address: 'a b' }, 'ipmi_address'],
  ])('rejects %j naming %s', (extra, key) => {
    expect(() => parseIpmiDriverInfo({ ipmi_address: '10.0.0.5', ...extra })).toThrow(
      expect.objectContaining({ code: 'InvalidParameterValue', message: expect.stringContaining(`driver_info/${key}`) }),
    );
  });

  it('explains why bridging is refused', () => {
    expect(() => parseIpmiDriverInfo({ ipmi_address: 'h', ipmi_bridging: 'single' })).toThrow(/set it to "no"/);
  });

  it('keys a BMC by address and port', () => {
    expect(bmcKey({ address: '127.0.0.1', port: 623 })).toBe('127.0.0.1:623');
    expect(bmcKey({ address: '::1', port: 6230 })).toBe('[::1]:6230');
  });
});
