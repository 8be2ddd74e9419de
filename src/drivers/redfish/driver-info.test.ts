import { describe, expect, it } from 'vitest';
import type { Json } from '../../domain/node.js';
import { parseRedfishDriverInfo } from './driver-info.js';

const parse = (driver_info: Record<string, Json>) => parseRedfishDriverInfo({ uuid: 'n1', driver_info });

describe('Redfish driver_info', () => {
  it('takes a bare host as https and keeps port and path prefix', () => {
    expect(parse({ redfish_address: '10.0.0.5' })).toMatchObject({ origin: 'https://10.0.0.5', prefix: '', verifyCa: true, authType: 'auto', systemId: null });
    expect(parse({ redfish_address: 'http://bmc.example:8000/proxy/one/' })).toMatchObject({ origin: 'http://bmc.example:8000', prefix: '/proxy/one' });
    expect(parse({ redfish_address: 'https://[::1]:8443' }).origin).toBe('https://[::1]:8443');
  });

  it('reads the system id, credentials, auth type and timeout', () => {
    expect(parse({
      redfish_address: 'https://h', redfish_system_id: '/redfish/v1/Systems/1/', redfish_username: 'u', redfish_password: 'p',
      redfish_auth_type: 'Session', redfish_request_timeout: '2.5',
    })).toMatchObject({ systemId: '/redfish/v1/Systems/1', username: 'u', password: 'p', authType: 'session', requestTimeoutMs: 2500 });
    expect(parse({ redfish_address: 'h', redfish_system_id: 'sim-0' }).systemId).toBe('/redfish/v1/Systems/sim-0');
  });

  it('reads verify_ca as a boolean, a word or a path', () => {
    expect(parse({ redfish_address: 'h', redfish_verify_ca: false }).verifyCa).toBe(false);
    expect(parse({ redfish_address: 'h', redfish_verify_ca: 'False' }).verifyCa).toBe(false);
    expect(parse({ redfish_address: 'h', redfish_verify_ca: 'True' }).verifyCa).toBe(true);
    expect(parse({ redfish_address: 'h', redfish_verify_ca: '/etc' }).verifyCa).toBe('/etc');
  });

  it('names the key in each error', () => {
    expect(() => parse({})).toThrow(expect.objectContaining({ code: 'MissingParameterValue', message: expect.stringContaining('redfish_address') }));
    const invalid = (info: Record<string, Json>, key: string) =>
      expect(() => parse(info)).toThrow(expect.objectContaining({ code: 'InvalidParameterValue', message: expect.stringContaining(key) }));
    invalid({ redfish_address: 'ftp://h' }, 'redfish_address');
    invalid({ redfish_address: 'http://' }, 'redfish_address');
    invalid({ redfish_address: 5 }, 'redfish_address');
    invalid({ redfish_address: 'h', redfish_verify_ca: '/no/such/ca.pem' }, 'redfish_verify_ca');
    invalid({ redfish_address: 'h', redfish_verify_ca: 3 }, 'redfish_verify_ca');
    invalid({ redfish_address: 'h', redfish_auth_type: 'digest' }, 'redfish_auth_type');
    invalid({ redfish_address: 'h', redfish_request_timeout: '-1' }, 'redfish_request_timeout');
    invalid({ redfish_address: 'h', redfish_username: 7 }, 'redfish_username');
    invalid({ redfish_address: 'h', redfish_system_id: '/redfish/v1/Systems/1?x' }, 'redfish_system_id');
  });
});
