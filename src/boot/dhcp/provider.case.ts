/** Conformance suite of {@link DhcpProvider}: run it from every implementation's test. */
import { describe, expect, it } from 'vitest';
import type { DhcpOption, DhcpProvider, UnknownPolicy } from './provider.js';

const NODE = { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' };
const PORT = { address: '52:54:00:12:34:56', pxe_enabled: true };
const BAD_PORT = { address: '52:54:00:12:34', pxe_enabled: true };
const OPTION: DhcpOption = { option: 67, value: 'undionly.kpxe', tags: ['!ipxe'] };

/** `make` returns a fresh provider; the suite closes it. */
export function dhcpProviderConformance(label: string, make: () => Promise<DhcpProvider>): void {
  describe(`DHCP provider conformance: ${label}`, () => {
    const withProvider = (fn: (p: DhcpProvider) => Promise<void>) => async () => {
      const p = await make();
      try {
        await fn(p);
      } finally {
        await p.close();
      }
    };

    it('accepts valid ports, options and filter changes', withProvider(async (p) => {
      await p.updatePortOptions(NODE, [PORT, { address: '52-54-00-AB-CD-EF', pxe_enabled: false }], [OPTION, { option: 'server-ip-address', value: '10.0.0.1' }]);
      await p.filter.deny([PORT.address]);
      await p.filter.allow(['52:54:00:AB:CD:EF']);
      await p.filter.setUnknownPolicy('deny');
      await p.filter.sync({ allow: [PORT.address], deny: [], unknown: 'allow' });
      await p.cleanPortOptions([PORT]);
    }));

    it('rejects a malformed MAC with InvalidParameterValue in every operation', withProvider(async (p) => {
      const invalid = { name: 'InvalidParameterValue' };
      await expect(p.updatePortOptions(NODE, [BAD_PORT], [OPTION])).rejects.toMatchObject(invalid);
      await expect(p.cleanPortOptions([BAD_PORT])).rejects.toMatchObject(invalid);
      await expect(p.filter.allow(['not-a-mac'])).rejects.toMatchObject(invalid);
      await expect(p.filter.deny(['*:*:*:*:*:*'])).rejects.toMatchObject(invalid);
      await expect(p.filter.sync({ allow: [], deny: ['00:11:22:33:44'], unknown: 'deny' })).rejects.toMatchObject(invalid);
    }));

    it('rejects options dnsmasq would misread', withProvider(async (p) => {
      for (const option of [
        { option: 67, value: 'a\nb' },
        { option: 300, value: 'x' },
        { option: 'no such name!', value: 'x' },
        { option: 67, value: 'x', tags: ['two words'] },
        { option: 66, value: [] as string[] },
      ] satisfies DhcpOption[]) {
        await expect(p.updatePortOptions(NODE, [PORT], [option]), JSON.stringify(option)).rejects.toMatchObject({ name: 'InvalidParameterValue' });
      }
    }));

    it('rejects an unknown-MAC policy other than allow or deny', withProvider(async (p) => {
      await expect(p.filter.setUnknownPolicy('maybe' as UnknownPolicy)).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    }));

    it('closes twice without error', async () => {
      const p = await make();
      await p.close();
      await expect(p.close()).resolves.toBeUndefined();
    });
  });
}
