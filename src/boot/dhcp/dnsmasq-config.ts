/**
 * The configuration file of the dnsmasq Ingot manages: DHCP on one interface, the host and option
 * directories the provider writes, the tags the boot options rely on, and the settings that make
 * network boots fast.
 */
import { isIPv4 } from 'node:net';
import { fail } from '../../shared/errors.js';
import { HTTP_BOOT_TAG, HTTP_CLIENT_CLASS } from './boot-options.js';

/** Everything the managed dnsmasq's configuration is rendered from. */
export interface ManagedDnsmasqSettings {
  interface: string;
  rangeStart: string;
  rangeEnd: string;
  netmask: string;
  leaseTimeS: number;
  hostsDir: string;
  optsDir: string;
  leaseFile: string;
  /** Serve DNS too; false sets port=0 (DHCP only). */
  dns: boolean;
  /** Answer IPv6 router solicitations (enable-ra with an ra-only range). */
  routerAdvertisement: boolean;
  /** Directory for dnsmasq's own TFTP server; empty or absent: no TFTP. */
  tftpRoot?: string;
  /** Default TFTP server (66 and next-server) for hosts without node options; empty or absent: none. */
  tftpServer?: string;
  /** More configuration lines, verbatim. */
  extraOptions?: readonly string[];
}

const IFNAME = /^[A-Za-z0-9_.:@-]{1,15}$/;

/** The dnsmasq.conf text; throws ConfigInvalid naming the bad setting. */
export function renderManagedConfig(s: ManagedDnsmasqSettings): string {
  if (!IFNAME.test(s.interface)) throw fail('dhcpInterfaceInvalid', { value: s.interface });
  for (const [key, value] of [['range_start', s.rangeStart], ['range_end', s.rangeEnd], ['netmask', s.netmask]] as const) {
    if (!isIPv4(value)) throw fail('dhcpAddressInvalid', { key, value });
  }
  if (s.tftpServer && !isIPv4(s.tftpServer)) throw fail('dhcpAddressInvalid', { key: 'tftp_server', value: s.tftpServer });
  if (!Number.isInteger(s.leaseTimeS) || s.leaseTimeS < 120) throw fail('dhcpLeaseTooShort', { value: s.leaseTimeS });
  for (const [key, value] of [['hosts_dir', s.hostsDir], ['opts_dir', s.optsDir], ['tftp_root', s.tftpRoot ?? '']] as const) {
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x1f]/.test(value)) throw fail('dhcpSettingControlChar', { key });
  }
  for (const line of s.extraOptions ?? []) {
    if (/[\r\n]/.test(line)) throw fail('dhcpExtraOptionMultiline');
  }
  const lines = [
    '# Written by Ingot at every start of its managed dnsmasq; edits are lost.',
    ...(s.dns ? ['except-interface=lo'] : ['port=0']),
    `interface=${s.interface}`,
    'bind-interfaces',
    `dhcp-range=${s.rangeStart},${s.rangeEnd},${s.netmask},${s.leaseTimeS}`,
    `dhcp-leasefile=${s.leaseFile}`,
    `dhcp-hostsdir=${s.hostsDir}`,
    `dhcp-optsdir=${s.optsDir}`,
    'log-dhcp',
    'log-facility=-',
    // NOTE: without no-ping dnsmasq probes an address with ICMP echo for ~3 s before its first OFFER
    // (measured in the lab: PXE 28 s -> 13 s together with the two iPXE settings below; docs/lab.md).
    'no-ping',
    // iPXE says who it is by user class "iPXE" and by sending option 175 (ipxe.org/howto/dhcpd).
    'dhcp-userclass=set:ipxe,iPXE',
    'dhcp-match=set:ipxe,175',
    // UEFI firmware: client architecture 7 (EFI BC) and 9 (EFI x86-64), RFC 4578 / IANA processor types.
    'dhcp-match=set:efi,option:client-arch,7',
    'dhcp-match=set:efi,option:client-arch,9',
    // UEFI HTTP boot firmware sends vendor class "HTTPClient:Arch:<arch>:UNDI:<ver>" (UEFI specification,
    // "HTTP Boot"); dnsmasq matches the class as a substring (dnsmasq(8), --dhcp-vendorclass).
    `dhcp-vendorclass=set:${HTTP_BOOT_TAG},${HTTP_CLIENT_CLASS}`,
    // iPXE's no-pxedhcp setting (175.176 = 1): iPXE skips waiting for a ProxyDHCP answer.
    'dhcp-option-force=tag:ipxe,encap:175,176,1b',
  ];
  if (s.routerAdvertisement) {
    // NOTE: iPXE waits for an IPv6 router before giving up on IPv6; answering its solicitation saves seconds.
    lines.push('enable-ra', `dhcp-range=::,constructor:${s.interface},ra-only`);
  }
  if (s.tftpRoot) lines.push('enable-tftp', `tftp-root=${s.tftpRoot}`);
  if (s.tftpServer) {
    // Defaults only: a node's tagged options win over untagged ones. Not dhcp-boot, whose file field
    // would override every node's option 67 (measured with dnsmasq 2.90).
    lines.push(`dhcp-option=66,${s.tftpServer}`, `dhcp-option=option:server-ip-address,${s.tftpServer}`);
  }
  lines.push(...(s.extraOptions ?? []));
  return `${lines.join('\n')}\n`;
}
