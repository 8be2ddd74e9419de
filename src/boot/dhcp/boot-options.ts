/**
 * The DHCP options that network-boot a node, after Ironic's `pxe_utils.dhcp_options_for_instance`:
 * option 67 (boot file), 66 and 150 (TFTP server), next-server (siaddr), 210 (TFTP path prefix), with
 * iPXE clients sent straight to their HTTP script and UEFI firmware to a UEFI loader. The tags are the
 * ones the managed dnsmasq sets (`ipxe`, `efi`); an operator-run dnsmasq needs the same lines (see
 * `renderManagedConfig`).
 */
import type { DhcpOption } from './provider.js';

/** What to boot. */
export interface BootOptionsInput {
  /** IPv4 address of the TFTP server holding the loaders (options 66 and 150, and next-server). */
  tftpServer: string;
  /** Loader for BIOS PXE firmware: `undionly.kpxe` (chainloads iPXE) or `pxelinux.0`. */
  biosBootFile: string;
  /** Loader for UEFI firmware (client architecture 7 or 9), e.g. `snponly.efi`; absent: biosBootFile for everyone. */
  uefiBootFile?: string;
  /**
   * URL of the node's iPXE script: iPXE (user class `iPXE`, option 175) gets it as its boot file, other
   * firmware gets the loader, which is iPXE and comes back. Absent: plain PXE over TFTP.
   */
  ipxeScriptUrl?: string;
  /** Option 210, the TFTP path prefix (plain PXE only, as Ironic), e.g. `/tftpboot/`; loaders like Petitboot need it. */
  tftpPathPrefix?: string;
}

/** Ironic's `DHCP_BOOTFILE_NAME`, `DHCP_TFTP_SERVER_NAME`, `DHCP_TFTP_SERVER_ADDRESS`, `DHCP_TFTP_PATH_PREFIX`. */
export const DHCP_OPTION = { bootFile: 67, tftpServerName: 66, tftpServerAddress: 150, tftpPathPrefix: 210 } as const;

/** The options for one node's PXE-enabled ports. */
export function pxeBootOptions(input: BootOptionsInput): DhcpOption[] {
  const notIpxe = input.ipxeScriptUrl ? ['!ipxe'] : [];
  const options: DhcpOption[] = [];
  if (input.uefiBootFile) {
    options.push({ option: DHCP_OPTION.bootFile, value: input.biosBootFile, tags: [...notIpxe, '!efi'] });
    options.push({ option: DHCP_OPTION.bootFile, value: input.uefiBootFile, tags: [...notIpxe, 'efi'] });
  } else {
    options.push({ option: DHCP_OPTION.bootFile, value: input.biosBootFile, ...(notIpxe.length ? { tags: notIpxe } : {}) });
  }
  if (input.ipxeScriptUrl) options.push({ option: DHCP_OPTION.bootFile, value: input.ipxeScriptUrl, tags: ['ipxe'] });
  else if (input.tftpPathPrefix) options.push({ option: DHCP_OPTION.tftpPathPrefix, value: input.tftpPathPrefix.replace(/\/?$/, '/') });
  options.push({ option: DHCP_OPTION.tftpServerName, value: input.tftpServer });
  options.push({ option: DHCP_OPTION.tftpServerAddress, value: input.tftpServer });
  // NOTE: dnsmasq sets siaddr to its own address unless next-server is given, and PXE ROMs fetch from
  // siaddr (RFC 2131 p. 9, RFC 5859; Ironic sets `server-ip-address` for the same reason).
  options.push({ option: 'server-ip-address', value: input.tftpServer });
  return options;
}
