/**
 * One thing a network boot loader boots, and the words every loader's config says it with: the kernel
 * command line (Ironic's templates' fixed words, the agent's parameters, BOOTIF) and the GRUB menu the
 * `pxe` (over TFTP) and `http` (over HTTP) interfaces both write, after Ironic's `pxe_grub_config.template`.
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
