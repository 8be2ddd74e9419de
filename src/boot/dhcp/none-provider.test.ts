import { describe, expect, it } from 'vitest';
import { NoneDhcpProvider } from './none-provider.js';
import { dhcpProviderConformance } from './provider.case.js';

dhcpProviderConformance('none', async () => new NoneDhcpProvider());

describe('none DHCP provider', () => {
  it('is named none', () => {
    expect(new NoneDhcpProvider().name).toBe('none');
  });
});
