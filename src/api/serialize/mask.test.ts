import { describe, expect, it } from 'vitest';
import { apiDriverInfo, apiDriverInternalInfo, apiInstanceInfo } from './mask.js';

describe('the secret fields of a node, as the API shows them', () => {
  it('masks every secret-looking key of driver_info at any depth, and the SNMP keys', () => {
    const input = {
      ipmi_password: 'p', ipmi_address: '10.0.0.1', redfish_PASSWORD: 'q', auth_token: 't', ssh_private_key: 'k',
      nested: { secret_key: 's', plain: 1 }, list: [1, 2], snmp_auth_key: 'a', snmp_priv_key: 'b', note: 'user=x password=y',
    };
    expect(apiDriverInfo(input)).toEqual({
      ipmi_password: '******', ipmi_address: '10.0.0.1', redfish_PASSWORD: '******', auth_token: '******', ssh_private_key: '******',
      nested: { secret_key: '******', plain: 1 }, list: [1, 2], snmp_auth_key: '******', snmp_priv_key: '******', note: 'user=x password=******',
    });
    expect(input.ipmi_password).toBe('p');
  });

  it('masks instance_info secrets, the config drive (a dict too) and image_url whole', () => {
    expect(apiInstanceInfo({
      image_source: 'http://x/img', image_pull_secret: 'c2VjcmV0', configdrive: { user_data: '#cloud-config', meta_data: { a: 1 } },
      image_url: 'https://user:pw@swift/temp?sig=1', root_gb: 10,
    })).toEqual({ image_source: 'http://x/img', image_pull_secret: '******', configdrive: '******', image_url: '******', root_gb: 10 });
    expect(apiInstanceInfo({ configdrive: 'H4sIAAAA' }).configdrive).toBe('******');
    expect(apiInstanceInfo({ image_source: 'https://u:pw@10.0.0.1/img.raw' }).image_source).toBe('https://u:******@10.0.0.1/img.raw');
  });

  it('masks the agent token in driver_internal_info', () => {
    expect(apiDriverInternalInfo({ agent_secret_token: 'tok', agent_url: 'http://10.0.0.5:9999' })).toEqual({ agent_secret_token: '******', agent_url: 'http://10.0.0.5:9999' });
  });

  it('returns the same objects when nothing is secret', () => {
    const input = { deploy_kernel: 'http://x/k', ipmi_username: 'admin' };
    expect(apiDriverInfo(input)).toBe(input);
    expect(apiInstanceInfo(input)).toBe(input);
  });
});
