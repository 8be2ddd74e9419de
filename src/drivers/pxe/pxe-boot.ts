/**
 * The `pxe` boot interface (Ironic's `pxe`): PXELINUX for BIOS and GRUB for UEFI machines, both over
 * TFTP. Per PXE-enabled port it writes `pxelinux.cfg/01-<mac>`, `grub.cfg-01-<mac>` and `<mac>.conf`
 * into the TFTP root, with the kernel and ramdisk at `<tftp root>/<node uuid>/`.
 */
import path from 'node:path';
import type { BootConfig } from '../../config/boot.js';
import type { BootInterface } from '../interfaces/boot.js';
import { macColons, macHyphens } from '../network-boot/boot-info.js';
import type { NetworkBootEnvironment } from '../network-boot/environment.js';
import { networkBoot, requireOptions, type BootFlavor } from '../network-boot/boot-interface.js';
import { renderGrubConfig, renderPxelinuxConfig } from './pxe-config.js';

/** Where the `pxe` interface writes the configs of `mac` (absolute paths). */
export function pxeConfigPaths(config: Pick<BootConfig, 'tftp_root_dir'>, mac: string): { pxelinux: string; grub: string; grubConf: string } {
  const root = config.tftp_root_dir;
  return {
    pxelinux: path.join(root, 'pxelinux.cfg', `01-${macHyphens(mac)}`),
    grub: path.join(root, `grub.cfg-01-${macHyphens(mac)}`),
    grubConf: path.join(root, `${macColons(mac)}.conf`),
  };
}

/** The flavor of {@link pxeBoot}. */
export const PXE_FLAVOR: BootFlavor = {
  name: 'pxe',
  checkConfig: (c) => requireOptions(c, 'pxe', ['tftp_root_dir', 'tftp_server']),
  imageRoot: (c) => c.tftp_root_dir,
  // Relative to the TFTP root: PXELINUX resolves them against its own directory (the root), GRUB gets them absolute.
  imageRef: (_c, node, label) => `${node.uuid}/${label}`,
  configFiles(c, entry, mac) {
    const p = pxeConfigPaths(c, mac);
    const grub = renderGrubConfig(entry, mac, c.tftp_server);
    return [
      { file: p.pxelinux, content: renderPxelinuxConfig(entry, mac) },
      { file: p.grub, content: grub },
      { file: p.grubConf, content: grub },
    ];
  },
  configPaths: (c, mac) => Object.values(pxeConfigPaths(c, mac)),
  dhcpInput: (c) => ({
    tftpServer: c.tftp_server,
    biosBootFile: c.pxe_bootfile_name,
    uefiBootFile: c.uefi_pxe_bootfile_name,
    ...(c.tftp_path_prefix ? { tftpPathPrefix: c.tftp_path_prefix } : {}),
  }),
};

/** The `pxe` boot interface over `env` (null: network boot not configured; operations fail with ConfigInvalid). */
export function pxeBoot(env: NetworkBootEnvironment | null): BootInterface {
  return networkBoot(PXE_FLAVOR, env);
}
