/**
 * The per-MAC iPXE script of the `ipxe` interface, after Ironic's `ipxe_config.template`: kernel and
 * initrd over HTTP, retried until they load (`|| goto`), with BOOTIF and the agent's parameters.
 */
import { kernelCommandLine, type BootEntry } from '../network-boot/boot-entry.js';

/** The script for the machine booting from `mac`; `timeoutS` > 0 adds iPXE's `--timeout` (in ms) to the downloads. */
export function renderIpxeScript(entry: BootEntry, mac: string, timeoutS = 0): string {
  const timeout = timeoutS > 0 ? `--timeout ${timeoutS * 1000} ` : '';
  const initrdName = entry.initrd.split('/').pop() ?? 'initrd';
  // NOTE: `initrd=<name>` on the command line lets an EFI-stub kernel find the initrd iPXE registered
  // under that name (iPXE docs, "initrd"); BIOS kernels ignore it.
  return [
    '#!ipxe',
    '',
    `goto ${entry.label}`,
    '',
    `:${entry.label}`,
    'imgfree',
    `kernel ${timeout}${entry.kernel} ${kernelCommandLine(entry, mac)} initrd=${initrdName} || goto ${entry.label}`,
    `initrd ${timeout}${entry.initrd} || goto ${entry.label}`,
    'boot',
    '',
  ].join('\n');
}
