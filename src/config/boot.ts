import { Type, type Static } from 'typebox';

/**
 * Network boot (Ironic's `[pxe]`, `[deploy] http_url/http_root` and the `ipa-api-url` it hands agents):
 * where the `pxe`, `ipxe` and `http` boot interfaces write configs, kernels and ramdisks, the HTTP boot
 * server that serves them, and what the machines are told over DHCP and on the kernel command line.
 */
export const BootConfig = Type.Object({
  http_enabled: Type.Boolean({ default: false, description: 'Run the HTTP boot server (iPXE scripts, kernels, ramdisks, UEFI HTTP boot) in `ingot serve`.' }),
  http_host: Type.String({ default: '0.0.0.0', description: 'Address the HTTP boot server listens on.' }),
  http_port: Type.Integer({ default: 8088, minimum: 0, maximum: 65535, description: 'TCP port of the HTTP boot server (0 picks a free one).' }),
  http_root_dir: Type.String({
    default: '',
    description: 'Directory served by the HTTP boot server, where the `ipxe` and `http` interfaces write per-node files. Empty: `<data dir>/httpboot`.',
  }),
  http_url: Type.String({
    default: '',
    description: 'Base URL the machines reach the HTTP boot server at (e.g. `http://10.0.0.1:8088`); required by `ipxe` and `http`. Empty with a specific `http_host`: that address and the bound port.',
  }),
  tftp_root_dir: Type.String({
    default: '',
    description: 'Directory where the `pxe` interface writes PXELINUX/GRUB configs and per-node kernels. Empty: the `[tftp] root_dir`, or `<data dir>/tftpboot`.',
  }),
  tftp_server: Type.String({
    default: '',
    description: 'IPv4 address of the TFTP server the machines are sent to (DHCP options 66, 150 and next-server); required by `pxe` and `ipxe`.',
  }),
  tftp_path_prefix: Type.String({ default: '', description: 'DHCP option 210 (TFTP path prefix) for plain PXE, e.g. `/tftpboot/`; empty: not sent.' }),
  api_url: Type.String({
    default: '',
    description: 'The Ingot API URL the ramdisk agent calls (`ipa-api-url` on its kernel command line, e.g. `http://10.0.0.1:6385`); required to boot the ramdisk.',
  }),
  kernel_append_params: Type.String({
    default: 'nofb vga=normal',
    description: 'Extra kernel parameters of the ramdisk (Ironic\'s `[pxe] kernel_append_params`); a node\'s `driver_info.kernel_append_params` replaces them.',
  }),
  pxe_bootfile_name: Type.String({ default: 'pxelinux.0', description: 'Loader for BIOS machines booting with the `pxe` interface (in the TFTP root).' }),
  uefi_pxe_bootfile_name: Type.String({ default: 'bootx64.efi', description: 'Loader (shim or GRUB) for UEFI machines booting with the `pxe` interface (in the TFTP root).' }),
  ipxe_bootfile_name: Type.String({ default: 'undionly.kpxe', description: 'iPXE for BIOS PXE ROMs that are not iPXE (`ipxe` interface), chainloaded from the TFTP root.' }),
  uefi_ipxe_bootfile_name: Type.String({ default: 'snponly.efi', description: 'iPXE for UEFI PXE firmware (`ipxe` interface), chainloaded from the TFTP root.' }),
  ipxe_timeout_s: Type.Integer({ default: 0, minimum: 0, description: 'iPXE download timeout of the kernel and ramdisk (`--timeout`); 0: iPXE\'s own.' }),
  uefi_http_bootfile_name: Type.String({
    default: 'bootx64.efi',
    description: 'UEFI HTTP boot (`http` interface): the EFI loader in the HTTP root handed to the firmware as a URL.',
  }),
});
export type BootConfig = Static<typeof BootConfig>;
