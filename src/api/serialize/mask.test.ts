import { describe, expect, it } from 'vitest';
import { maskSecrets } from './mask.js';

describe('maskSecrets', () => {
  it('masks secret-looking keys at any depth, case-insensitively, and keeps the rest', () => {
    const input = {
      ipmi_password: 'p', ipmi_address: '10.0.0.1', redfish_PASSWORD: 'q', auth_token: 't', ssh_private_key: 'k',
      nested: { secret_key: 's', plain: 1 }, list: [1, 2],
    };
    expect(maskSecrets(input)).toEqual({
      ipmi_password: '******', ipmi_address: '10.0.0.1', redfish_PASSWORD: '******', auth_token: '******', ssh_private_key: '******',
      nested: { secret_key: '******', plain: 1 }, list: [1, 2],
    });
    expect(input.ipmi_password).toBe('p');
  });

  it('returns the same object when nothing is secret', () => {
    const input = { deploy_kernel: 'http://x/k', ipmi_username: 'admin' };
    expect(maskSecrets(input)).toBe(input);
  });
});
