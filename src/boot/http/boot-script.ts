/**
 * The `boot.ipxe` dispatcher every iPXE client is sent to over DHCP (after Ironic's `boot.ipxe`): it tries
 * the per-MAC script of each network device in turn, since the machine may have booted from any of them.
 * Scripts live at `pxelinux.cfg/<aa-bb-cc-dd-ee-ff>` relative to it (iPXE resolves a relative `chain`
 * against the script's own URL).
 */

/** How long the dispatcher waits for a key before it reboots a machine no script was found for. */
export const DISPATCHER_REBOOT_TIMEOUT_MS = 180_000;

/** The dispatcher script. */
export function renderBootDispatcher(): string {
  return [
    '#!ipxe',
    '',
    'set netid:int32 -1',
    ':loop',
    'inc netid || goto old_rom',
    'isset ${net${netid}/mac} || goto loop_done',
    'echo Attempting to boot from MAC ${net${netid}/mac:hexhyp}',
    'chain pxelinux.cfg/${net${netid}/mac:hexhyp} || goto loop',
    '',
    ':loop_done',
    'echo PXE boot failed! No configuration found for any of the present NICs.',
    'echo Press any key to reboot...',
    // NOTE: iPXE's `prompt --timeout` is in milliseconds (ipxe.org/cmd/prompt), so Ironic's `180` waits
    // 0.18 s; and `prompt` fails on timeout, which would end the script and send the firmware on to its
    // next boot device instead of rebooting. Three minutes, then a reboot either way.
    `prompt --timeout ${DISPATCHER_REBOOT_TIMEOUT_MS} || reboot`,
    'reboot',
    '',
    // NOTE: iPXE builds without integer settings (`inc`, before 2016) can only try the MAC they booted from.
    ':old_rom',
    'chain pxelinux.cfg/${mac:hexhyp} || goto loop_done',
    '',
  ].join('\n');
}
