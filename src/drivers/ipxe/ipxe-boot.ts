/**
 * The `ipxe` boot interface (Ironic's `ipxe`): an iPXE script per PXE-enabled port at
 * `<http root>/pxelinux.cfg/<aa-bb-cc-dd-ee-ff>` (Ironic's layout), reached through the `boot.ipxe`
 * dispatcher the HTTP boot server renders; kernel and ramdisk over HTTP from `<http root>/<node uuid>/`.
 * iPXE clients get the dispatcher's URL over DHCP; other PXE firmware first chainloads iPXE
 * (`undionly.kpxe` for BIOS, `snponly.efi` for UEFI, from the TFTP root), which asks DHCP again.
 */
import path from 'node:path';
import type { BootConfig } from '../../config/boot.js';
import type { BootInterface } from '../interfaces/boot.js';
import { macHyphens } from '../network-boot/boot-info.js';
import type { NetworkBootEnvironment } from '../network-boot/environment.js';
import { httpUrl, networkBoot, requireOptions, type BootFlavor } from '../network-boot/boot-interface.js';
import { renderIpxeScript } from './ipxe-script.js';

/** Where the `ipxe` interface writes the script of `mac`. */
export function ipxeScriptPath(config: Pick<BootConfig, 'http_root_dir'>, mac: string): string {
  return path.join(config.http_root_dir, 'pxelinux.cfg', macHyphens(mac));
}

/** The flavor of {@link ipxeBoot}. */
export const IPXE_FLAVOR: BootFlavor = {
  name: 'ipxe',
  checkConfig: (c) => requireOptions(c, 'ipxe', ['http_root_dir', 'http_url', 'tftp_server']),
  imageRoot: (c) => c.http_root_dir,
  imageRef: (c, node, label) => httpUrl(c, `${node.uuid}/${label}`),
  configFiles: (c, entry, mac) => [{ file: ipxeScriptPath(c, mac), content: renderIpxeScript(entry, mac, c.ipxe_timeout_s) }],
  configPaths: (c, mac) => [ipxeScriptPath(c, mac)],
  dhcpInput: (c) => ({
    tftpServer: c.tftp_server,
    biosBootFile: c.ipxe_bootfile_name,
    uefiBootFile: c.uefi_ipxe_bootfile_name,
    ipxeScriptUrl: httpUrl(c, 'boot.ipxe'),
  }),
};

/** The `ipxe` boot interface over `env` (null: network boot not configured; operations fail with ConfigInvalid). */
export function ipxeBoot(env: NetworkBootEnvironment | null): BootInterface {
  return networkBoot(IPXE_FLAVOR, env);
}
