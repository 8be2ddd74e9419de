import { describe, expect, it } from 'vitest';
import { renderManagedConfig, type ManagedDnsmasqSettings } from './dnsmasq-config.js';

const BASE: ManagedDnsmasqSettings = {
  interface: 'br-prov', rangeStart: '10.20.0.100', rangeEnd: '10.20.0.200', netmask: '255.255.255.0', leaseTimeS: 600,
  hostsDir: '/var/lib/ingot/dhcp/hostsdir', optsDir: '/var/lib/ingot/dhcp/optsdir', leaseFile: '/var/lib/ingot/dhcp/dnsmasq.leases',
  dns: false, routerAdvertisement: false,
};

describe('renderManagedConfig', () => {
  it('serves DHCP only on the interface, from the provider directories, with the boot tags and fast-PXE settings', () => {
    const lines = renderManagedConfig(BASE).split('\n');
    expect(lines).toEqual(expect.arrayContaining([
      'port=0',
      'interface=br-prov',
      'bind-interfaces',
      'dhcp-range=10.20.0.100,10.20.0.200,255.255.255.0,600',
      'dhcp-leasefile=/var/lib/ingot/dhcp/dnsmasq.leases',
      'dhcp-hostsdir=/var/lib/ingot/dhcp/hostsdir',
      'dhcp-optsdir=/var/lib/ingot/dhcp/optsdir',
      'log-dhcp',
      'no-ping',
      'dhcp-userclass=set:ipxe,iPXE',
      'dhcp-match=set:ipxe,175',
      'dhcp-match=set:efi,option:client-arch,7',
      'dhcp-match=set:efi,option:client-arch,9',
      'dhcp-vendorclass=set:httpboot,HTTPClient',
      'dhcp-option-force=tag:ipxe,encap:175,176,1b',
    ]));
    expect(lines.some((l) => /^(enable-tftp|enable-ra|dhcp-boot|dhcp-option=66)/.test(l))).toBe(false);
  });

  it('adds DNS, router advertisements, TFTP, a default TFTP server and extra lines on request', () => {
    const text = renderManagedConfig({
      ...BASE, dns: true, routerAdvertisement: true, tftpRoot: '/srv/tftp', tftpServer: '10.20.0.1', extraOptions: ['dhcp-option=option:router,10.20.0.1'],
    });
    expect(text).not.toContain('port=0');
    expect(text).toContain('except-interface=lo\n');
    expect(text).toContain('enable-ra\ndhcp-range=::,constructor:br-prov,ra-only\n');
    expect(text).toContain('enable-tftp\ntftp-root=/srv/tftp\n');
    expect(text).toContain('dhcp-option=66,10.20.0.1\ndhcp-option=option:server-ip-address,10.20.0.1\n');
    expect(text.endsWith('dhcp-option=option:router,10.20.0.1\n')).toBe(true);
  });

  it.each([
    [{ interface: 'eth0; rm -rf' }, 'interface'],
    [{ interface: 'a-very-long-interface-name' }, 'interface'],
    [{ rangeStart: '10.20.0' }, 'range_start'],
    [{ netmask: '' }, 'netmask'],
    [{ tftpServer: 'tftp.example' }, 'tftp_server'],
    [{ leaseTimeS: 60 }, 'lease_time_s'],
    [{ extraOptions: ['a\nb'] }, 'extra_options'],
    [{ hostsDir: '/x\ny' }, 'hosts_dir'],
  ] as const)('refuses %j', (change, key) => {
    expect(() => renderManagedConfig({ ...BASE, ...change })).toThrow(expect.objectContaining({ name: 'ConfigInvalid', message: expect.stringContaining(key) }));
  });
});
