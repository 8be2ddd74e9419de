/**
 * The `http` boot interface (Ironic's `http`): UEFI HTTP boot. Over DHCP the firmware gets the URL of
 * the EFI loader (GRUB) at `<http_url>/<uefi_http_bootfile_name>`, with vendor class `HTTPClient`; GRUB
 * reads the master `grub.cfg` of the HTTP root, then the config of the booting MAC, and loads kernel and
 * ramdisk over HTTP from `<http root>/<node uuid>/`. Per PXE-enabled port it writes
 * `<aa:bb:cc:dd:ee:ff>.conf` and `grub.cfg-01-<aa-bb-cc-dd-ee-ff>` into the HTTP root. UEFI only: a
 * node set to legacy BIOS is refused. No TFTP is involved.
 */
import type { BootConfig } from '../../config/boot.js';
import type { BootInterface } from '../interfaces/boot.js';
import { bootOption } from '../network-boot/boot-info.js';
import type { NetworkBootEnvironment } from '../network-boot/environment.js';
import { httpUrl, networkBoot, requireOptions, type BootFlavor } from '../network-boot/boot-interface.js';
import { requireUefi } from './boot-mode.js';
import { grubHttpPath, grubHttpRoot, grubMasterConfigPath, httpConfigPaths, renderGrubMasterConfig, renderHttpGrubConfig } from './http-config.js';

/** The URL UEFI HTTP boot firmware loads the EFI loader from. */
export function httpBootLoaderUrl(config: Pick<BootConfig, 'http_url' | 'uefi_http_bootfile_name'>): string {
  return httpUrl(config, config.uefi_http_bootfile_name.trim());
}

/** The flavor of {@link httpBoot}. */
export const HTTP_FLAVOR: BootFlavor = {
  name: 'http',
  checkConfig(c) {
    requireOptions(c, 'http', ['http_root_dir', 'http_url', 'uefi_http_bootfile_name']);
    grubHttpRoot(c);
  },
  imageRoot: (c) => c.http_root_dir,
  imageRef: (c, node, label) => grubHttpPath(grubHttpRoot(c), `${node.uuid}/${label}`),
  configFiles(c, entry, mac) {
    const root = grubHttpRoot(c);
    const p = httpConfigPaths(c, mac);
    const grub = renderHttpGrubConfig(entry, mac, root);
    return [
      { file: p.grubConf, content: grub },
      { file: p.grub, content: grub },
      // The master config is the same for every machine: rewritten (atomically, unchanged) with each
      // node's configs and left out of configPaths, so a clean-up never takes it from a machine booting.
      { file: grubMasterConfigPath(c), content: renderGrubMasterConfig(root) },
    ];
  },
  configPaths: (c, mac) => Object.values(httpConfigPaths(c, mac)),
  // HTTP boot only: PXE firmware is sent nothing, so it falls through to the next boot option.
  dhcpInput: (c) => ({ tftpServer: '', biosBootFile: '', httpBootUrl: httpBootLoaderUrl(c) }),
};

/**
 * The `http` boot interface over `env` (null: network boot not configured; operations fail with
 * ConfigInvalid). `validate` and the ramdisk and ramdisk-instance boots refuse a node set to legacy BIOS
 * (InvalidParameterValue); clean-ups and local boots never do.
 */
export function httpBoot(env: NetworkBootEnvironment | null): BootInterface {
  const base = networkBoot(HTTP_FLAVOR, env);
  return {
    ...base,
    async validate(task) {
      requireUefi(task.node);
      await base.validate(task);
    },
    async prepareRamdisk(task, mode) {
      requireUefi(task.node);
      await base.prepareRamdisk(task, mode);
    },
    async prepareInstance(task) {
      if (bootOption(task.node) === 'ramdisk') requireUefi(task.node);
      await base.prepareInstance(task);
    },
  };
}
