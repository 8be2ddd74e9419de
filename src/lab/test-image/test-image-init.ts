/**
 * The `/init` of the test image's tiny initramfs (busybox `sh`): it proves on the serial console that
 * the machine booted the disk Ingot wrote, and what config drive it was given.
 *
 * Console lines (each alone on its line, so a reader can match them whole):
 * - `INGOT-TEST-IMAGE-BOOTED`: first thing after /proc, /sys and /dev are mounted;
 * - `INGOT-CONFIG-DRIVE=<device>` or `INGOT-CONFIG-DRIVE=none`: the first block device (disks,
 *   partitions, CD-ROMs) holding an ISO 9660 file system labelled `config-2`;
 * - `INGOT-HOSTNAME=<hostname>` and `INGOT-UUID=<uuid>` from its `openstack/latest/meta_data.json`;
 * - `INGOT-TEST-IMAGE-DONE`, then the machine powers off — unless the kernel command line has
 *   `ingot.stay`: then it stays up until the ACPI power button (or a hard power off).
 */

/** The marker the test image prints first. */
export const TEST_IMAGE_BOOTED_MARKER = 'INGOT-TEST-IMAGE-BOOTED';
/** The marker the test image prints last, before it powers off. */
export const TEST_IMAGE_DONE_MARKER = 'INGOT-TEST-IMAGE-DONE';
/** Kernel parameter that keeps the test image running after its report. */
export const TEST_IMAGE_STAY_PARAM = 'ingot.stay';

/** The module list file, one path relative to /lib/modules/<release> a line, in load order. */
export const TEST_IMAGE_MODULES_FILE = '/etc/ingot/modules';

/** Seconds the image looks for a config drive (SCSI and ATA disks appear asynchronously). */
export const CONFIG_DRIVE_WAIT_S = 5;

/**
 * Shell function `is_config_drive DEVICE`: true when DEVICE (or file) holds an ISO 9660 file system
 * labelled `config-2`, read without mounting. An ISO 9660 primary volume descriptor sits at byte
 * 32768: type 1, "CD001", and at offset 40 the 32-byte volume identifier padded with spaces
 * (ECMA-119 §8.4).
 */
export const CONFIG_DRIVE_PROBE = `is_config_drive() {
  [ "$(dd if="$1" bs=2048 skip=16 count=1 2>/dev/null | dd bs=1 skip=1 count=5 2>/dev/null)" = CD001 ] || return 1
  [ "$(dd if="$1" bs=2048 skip=16 count=1 2>/dev/null | dd bs=1 skip=40 count=32 2>/dev/null | sed 's/ *$//')" = config-2 ]
}
`;

/** Parses the console lines of a test image boot: the markers and the values it printed. */
export function parseTestImageConsole(text: string): { booted: boolean; done: boolean; configDrive: string | null; hostname: string | null; uuid: string | null } {
  const value = (key: string): string | null => {
    const m = new RegExp(`^${key}=(.*?)\\r?$`, 'm').exec(text);
    return m ? m[1]! : null;
  };
  return {
    booted: new RegExp(`^${TEST_IMAGE_BOOTED_MARKER}\\r?$`, 'm').test(text),
    done: new RegExp(`^${TEST_IMAGE_DONE_MARKER}\\r?$`, 'm').test(text),
    configDrive: value('INGOT-CONFIG-DRIVE'),
    hostname: value('INGOT-HOSTNAME'),
    uuid: value('INGOT-UUID'),
  };
}

/** The `/init` script; `release` is the kernel release of the modules. */
export function testImageInitScript(release: string): string {
  return `#!/bin/sh
# Ingot test image: PID 1 of its initramfs.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
echo ${TEST_IMAGE_BOOTED_MARKER}
off() { sync; poweroff -f; sleep 5; echo o > /proc/sysrq-trigger; }
trap off USR2 USR1
trap 'sync; reboot -f' TERM
while read -r module; do
  [ -n "$module" ] && { insmod "/lib/modules/${release}/$module" 2>/dev/null || echo "ingot-test-image: insmod $module failed"; }
done < ${TEST_IMAGE_MODULES_FILE}

${CONFIG_DRIVE_PROBE}drive=""
tries=0
while [ -z "$drive" ] && [ "$tries" -lt ${CONFIG_DRIVE_WAIT_S * 10} ]; do
  for dev in /dev/vd* /dev/sd* /dev/sr* /dev/nvme*n*; do
    [ -b "$dev" ] && is_config_drive "$dev" && { drive=$dev; break; }
  done
  [ -z "$drive" ] && sleep 0.1
  tries=$((tries + 1))
done
echo "INGOT-CONFIG-DRIVE=\${drive:-none}"
if [ -n "$drive" ]; then
  mkdir -p /mnt/config
  meta=/mnt/config/openstack/latest/meta_data.json
  if mount -t iso9660 -o ro "$drive" /mnt/config 2>/dev/null && [ -f "$meta" ]; then
    json=$(cat "$meta")
  else
    # Without a mount: an ISO stores file contents as they are.
    json=$(grep -a -o '"hostname": *"[^"]*"\\|"uuid": *"[^"]*"' "$drive")
  fi
  echo "INGOT-HOSTNAME=$(echo "$json" | sed -n 's/.*"hostname": *"\\([^"]*\\)".*/\\1/p' | head -n 1)"
  echo "INGOT-UUID=$(echo "$json" | sed -n 's/.*"uuid": *"\\([^"]*\\)".*/\\1/p' | head -n 1)"
fi
echo ${TEST_IMAGE_DONE_MARKER}
if grep -qw ${TEST_IMAGE_STAY_PARAM} /proc/cmdline; then
  mkdir -p /var/log /var/run
  acpid -c /etc/acpi -l /var/log/acpid.log
  while :; do sleep 3600 & wait $!; done
fi
off
`;
}

/** busybox acpid's action for the power button (event PWRF): power off through PID 1. */
export function testImagePowerButtonScript(): string {
  return '#!/bin/sh\nkill -USR2 1\n';
}

/**
 * The syslinux configuration: boot /vmlinuz with /initrd.img at once, serial console on ttyS0,
 * `no_timer_check` (QEMU TCG guests sometimes panic in the IO-APIC timer check when the host is busy)
 * and `pci=noacpi` (PCI interrupts from the BIOS's PIR table: ACPI's interrupt links cost the boot ~1 s
 * of AML under TCG; the image is made for QEMU machines, see LAB_KERNEL_APPEND_PARAMS).
 */
export function syslinuxConfig(opts: { stay: boolean }): string {
  return [
    'SERIAL 0 115200',
    'DEFAULT ingot',
    'PROMPT 0',
    'TIMEOUT 0',
    'LABEL ingot',
    '  LINUX /vmlinuz',
    '  INITRD /initrd.img',
    `  APPEND console=ttyS0,115200 no_timer_check pci=noacpi panic=10${opts.stay ? ` ${TEST_IMAGE_STAY_PARAM}` : ''}`,
    '',
  ].join('\n');
}
