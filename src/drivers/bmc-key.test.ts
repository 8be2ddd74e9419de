import { describe, expect, it } from 'vitest';
import { bmcKey } from './bmc-key.js';

describe('bmcKey', () => {
  const n = (driver_info: Record<string, string | number>) => ({ uuid: 'u-1', driver_info });
  it('names the BMC a node is reached through', () => {
    expect(bmcKey(n({ redfish_address: 'https://10.0.0.5', redfish_system_id: '/redfish/v1/Systems/1' }))).toBe('redfish:10.0.0.5');
    expect(bmcKey(n({ redfish_address: 'http://10.0.0.5:8000/' }))).toBe('redfish:10.0.0.5:8000');
    expect(bmcKey(n({ redfish_address: '10.0.0.6' }))).toBe('redfish:10.0.0.6');
    expect(bmcKey(n({ ipmi_address: '10.0.0.7' }))).toBe('ipmi:10.0.0.7:623');
    expect(bmcKey(n({ ipmi_address: '127.0.0.1', ipmi_port: 6231 }))).toBe('ipmi:127.0.0.1:6231');
    expect(bmcKey(n({}))).toBe('node:u-1');
  });
});
