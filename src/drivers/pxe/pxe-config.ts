/**
 * The per-MAC boot configs of the `pxe` interface, after Ironic's `pxe_config.template` (PXELINUX, BIOS)
 * and `pxe_grub_config.template` (GRUB, UEFI). One entry is written: the agent ramdisk (`deploy`) or the
 * instance of a ramdisk deploy (`boot_ramdisk`); a local boot writes nothing.
 */
import { kernelCommandLine, renderGrubMenu, type BootEntry } from '../network-boot/boot-entry.js';

/**
 * PXELINUX config for `pxelinux.cfg/01-<mac>`. Paths are relative to the TFTP root.
 * NOTE: BOOTIF is written out rather than asked of PXELINUX with `ipappend 2`: the file is per MAC, so the
 * value is known, and the same line then works for loaders that ignore `ipappend` (Petitboot, lpxelinux).
 */
export function renderPxelinuxConfig(entry: BootEntry, mac: string): string {
  return [
    `default ${entry.label}`,
    '',
    `label ${entry.label}`,
    `kernel ${entry.kernel}`,
    `append initrd=${entry.initrd} ${kernelCommandLine(entry, mac)}`,
    '',
  ].join('\n');
}

/**
 * GRUB config for `grub.cfg-01-<mac>` (and `<mac>.conf`). Paths are absolute on the TFTP server.
 * NOTE: `linux`/`initrd` rather than Ironic's older `linuxefi`/`initrdefi`: upstream GRUB (2.04 and later)
 * boots EFI-stub kernels with `linux`, and `linuxefi` exists only in some distributions' patched GRUB.
 * `boot_server` is the TFTP server, as Ironic's template passes it.
 */
export function renderGrubConfig(entry: BootEntry, mac: string, tftpServer: string): string {
  return renderGrubMenu(entry, absolute(entry.kernel), absolute(entry.initrd), mac, tftpServer);
}

function absolute(p: string): string {
  return p.startsWith('/') ? p : `/${p}`;
}
