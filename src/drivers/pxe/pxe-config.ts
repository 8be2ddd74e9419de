/**
 * The per-MAC boot configs of the `pxe` interface, after Ironic's `pxe_config.template` (PXELINUX, BIOS)
 * and `pxe_grub_config.template` (GRUB, UEFI). One entry is written: the agent ramdisk (`deploy`) or the
 * instance of a ramdisk deploy (`boot_ramdisk`); a local boot writes nothing.
 */
import { bootIf } from './boot-info.js';

/** One thing to boot: kernel and initrd as the loader names them (TFTP paths or HTTP URLs). */
export interface BootEntry {
  /** `deploy` for the agent ramdisk, `boot_ramdisk` for the instance of a ramdisk deploy. */
  label: 'deploy' | 'boot_ramdisk';
  kernel: string;
  initrd: string;
  /** Kernel parameters, BOOTIF excluded (added per MAC). */
  params: string;
}

/** The fixed words Ironic puts before the parameters of each label. */
function leading(entry: BootEntry): string {
  return entry.label === 'deploy' ? 'selinux=0 troubleshoot=0 text' : 'root=/dev/ram0 text';
}

/** `coreos.configdrive=0` tells a CoreOS-based agent ramdisk not to wait for a config drive (Ironic adds it). */
function trailing(entry: BootEntry): string[] {
  return entry.label === 'deploy' ? ['coreos.configdrive=0'] : [];
}

/** The kernel command line of `entry` for the machine booting from `mac`. */
export function kernelCommandLine(entry: BootEntry, mac: string): string {
  return [leading(entry), entry.params, bootIf(mac), ...trailing(entry)].filter((p) => p !== '').join(' ');
}

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

/** The GRUB menu booting `entry` with the loader's names of its kernel and initrd; `bootServer` '' leaves `boot_server` out. */
export function renderGrubMenu(entry: BootEntry, kernel: string, initrd: string, mac: string, bootServer: string): string {
  const server = bootServer ? ` boot_server=${bootServer}` : '';
  return [
    `set default=${entry.label}`,
    'set timeout=5',
    'set hidden_timeout_quiet=false',
    '',
    `menuentry "${entry.label}" {`,
    `    linux ${kernel} ${kernelCommandLine(entry, mac)}${server}`,
    `    initrd ${initrd}`,
    '}',
    '',
  ].join('\n');
}

function absolute(p: string): string {
  return p.startsWith('/') ? p : `/${p}`;
}
