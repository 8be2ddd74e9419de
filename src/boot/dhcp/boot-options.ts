/**
 * The DHCP options that network-boot a node, after Ironic's `pxe_utils.dhcp_options_for_instance`:
 * option 67 (boot file), 66 and 150 (TFTP server), next-server (siaddr), 210 (TFTP path prefix), with
 * iPXE clients sent straight to their HTTP script, UEFI firmware to a UEFI loader and UEFI HTTP boot
 * firmware to a loader URL. The tags are the ones the managed dnsmasq sets (`ipxe`, `efi`, `httpboot`);
 * an operator-run dnsmasq needs the same lines (see `renderManagedConfig`).
 */
import { fail } from '../../shared/errors.js';
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
  /**
   * UEFI HTTP boot: the http(s) URL of the EFI loader, e.g. `http://10.0.0.1:8088/bootx64.efi`. Firmware
   * whose vendor class (option 60) is `HTTPClient…` (tag `httpboot`) gets it as its boot file, with
   * option 60 `HTTPClient` in the answer. With it set, an empty `tftpServer` or `biosBootFile` means
   * that part is not sent (HTTP boot only).
   */
  httpBootUrl?: string;
}

/**
 * Ironic's `DHCP_BOOTFILE_NAME`, `DHCP_TFTP_SERVER_NAME`, `DHCP_TFTP_SERVER_ADDRESS`, `DHCP_TFTP_PATH_PREFIX`,
 * and the vendor class identifier (RFC 2132 §9.13) that marks a UEFI HTTP boot answer.
 */
export const DHCP_OPTION = { bootFile: 67, tftpServerName: 66, tftpServerAddress: 150, tftpPathPrefix: 210, vendorClass: 60 } as const;

/** The dnsmasq tag of UEFI HTTP boot clients (vendor class `HTTPClient…`), set by `renderManagedConfig`. */
export const HTTP_BOOT_TAG = 'httpboot';

/** The vendor class a UEFI HTTP boot answer carries. */
export const HTTP_CLIENT_CLASS = 'HTTPClient';

/** The options for one node's PXE-enabled ports. */
export function pxeBootOptions(input: BootOptionsInput): DhcpOption[] {
  const http = input.httpBootUrl;
  if (http !== undefined && !/^https?:\/\/[^\s/]+/i.test(http)) {
    throw fail('httpBootUrlInvalid', { url: http });
  }
  const options: DhcpOption[] = [];
  if (http) {
    // NOTE: UEFI HTTP boot firmware takes an offer's boot file as a URI only when the offer's option 60
    // starts with "HTTPClient" (UEFI specification, "HTTP Boot"; EDK II NetworkPkg/HttpBootDxe/
    // HttpBootDhcp4.c, HttpBootParseDhcp4Packet). Its parameter request list carries option 60
    // (HttpBootBuildDhcp4Options), so a plain dhcp-option reaches it without dhcp-option-force.
    options.push({ option: DHCP_OPTION.bootFile, value: http, tags: [HTTP_BOOT_TAG] });
    options.push({ option: DHCP_OPTION.vendorClass, value: HTTP_CLIENT_CLASS, tags: [HTTP_BOOT_TAG] });
  }
  const notOthers = [...(input.ipxeScriptUrl ? ['!ipxe'] : []), ...(http ? [`!${HTTP_BOOT_TAG}`] : [])];
  if (input.biosBootFile !== '' || !http) {
    if (input.uefiBootFile) {
      options.push({ option: DHCP_OPTION.bootFile, value: input.biosBootFile, tags: [...notOthers, '!efi'] });
      options.push({ option: DHCP_OPTION.bootFile, value: input.uefiBootFile, tags: [...notOthers, 'efi'] });
    } else {
      options.push({ option: DHCP_OPTION.bootFile, value: input.biosBootFile, ...(notOthers.length ? { tags: notOthers } : {}) });
    }
  }
  if (input.ipxeScriptUrl) options.push({ option: DHCP_OPTION.bootFile, value: input.ipxeScriptUrl, tags: ['ipxe'] });
  else if (input.tftpPathPrefix) options.push({ option: DHCP_OPTION.tftpPathPrefix, value: input.tftpPathPrefix.replace(/\/?$/, '/') });
  if (input.tftpServer !== '' || !http) {
    options.push({ option: DHCP_OPTION.tftpServerName, value: input.tftpServer });
    options.push({ option: DHCP_OPTION.tftpServerAddress, value: input.tftpServer });
    // NOTE: dnsmasq sets siaddr to its own address unless next-server is given, and PXE ROMs fetch from
    // siaddr (RFC 2131 p. 9, RFC 5859; Ironic sets `server-ip-address` for the same reason).
    options.push({ option: 'server-ip-address', value: input.tftpServer });
  }
  return options;
}
