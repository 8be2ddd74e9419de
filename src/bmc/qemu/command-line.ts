/**
 * QEMU's command line for a machine, and its boot order. The boot order is expressed with per-device
 * `bootindex` properties (not `-boot order=`): they name each device, NICs included, and QEMU hands them
 * to the firmware (SeaBIOS or OVMF) as its `bootorder` file. Every boot starts a fresh QEMU (see
 * machine.ts), so the order is fixed for the life of one process.
 */
import path from 'node:path';
import type { MachineBootDevice } from '../machine.js';
import type { ResolvedQemuSpec } from './spec.js';

/** Files of one machine inside its work directory. */
export interface QemuPaths {
  qmp: string;
  pid: string;
  serialLog: string;
  qemuLog: string;
  /** The machine's own copy of the OVMF variable store (UEFI only). */
  ovmfVars: string;
}

export function qemuPaths(workDir: string): QemuPaths {
  return {
    qmp: path.join(workDir, 'qmp.sock'),
    pid: path.join(workDir, 'qemu.pid'),
    serialLog: path.join(workDir, 'serial.log'),
    qemuLog: path.join(workDir, 'qemu.log'),
    ovmfVars: path.join(workDir, 'OVMF_VARS.fd'),
  };
}

/** QOM ids of the bootable devices (`/machine/peripheral/<id>`). */
export const DISK_ID = 'disk0';
export const CDROM_ID = 'cd0';
export const nicId = (i: number): string => `net${i}`;

/**
 * The device ids in the order the firmware should try them for a boot from `device`: the chosen device
 * first, then the others (disk, NICs, CD), so a failed boot falls through like a real server's would.
 * `none` and `bios` boot the disk first (SeaBIOS has no setup screen to stop in).
 */
export function bootOrder(device: MachineBootDevice, nicCount: number): string[] {
  const nics = Array.from({ length: nicCount }, (_, i) => nicId(i));
  if (device === 'pxe') return [...nics, DISK_ID, CDROM_ID];
  if (device === 'cdrom') return [CDROM_ID, DISK_ID, ...nics];
  return [DISK_ID, ...nics, CDROM_ID];
}

/** `bootindex` of `id` in `order` (0 first). */
function indexIn(order: string[], id: string): number {
  return order.indexOf(id);
}

/** The full argument list for QEMU, booting in `order`. `cdrom` is a local image file or null (empty tray). */
export function qemuArgs(spec: ResolvedQemuSpec, paths: QemuPaths, order: string[], cdrom: string | null): string[] {
  const opt = (value: string) => value.replaceAll(',', ',,'); // QEMU option values escape ',' by doubling
  const args = [
    '-name', `guest=${spec.name}`,
    '-machine', 'pc',
    // NOTE: /dev/kvm may exist yet run only specially built guest kernels (lab-facts.md): TCG unless the
    // spec asks for KVM, which `ingot lab up` does only after a probe booted a kernel with it.
    '-accel', spec.accel,
    '-nodefaults', '-no-user-config',
    // NOTE: SeaBIOS and iPXE mirror their text to the serial port only with -nographic (lab-facts.md);
    // explicit -serial and -monitor none keep stdio out of it. append=on keeps the log across boots.
    '-nographic', '-monitor', 'none',
    '-chardev', `file,id=serial0,path=${opt(paths.serialLog)},append=on`,
    '-serial', 'chardev:serial0',
    '-qmp', `unix:${opt(paths.qmp)},server=on,wait=off`,
    '-pidfile', paths.pid,
    // A guest power-off stops the VM (QMP status "shutdown", event SHUTDOWN) instead of ending QEMU, and
    // a guest reboot does the same with reason "guest-reset": the back-end then boots a fresh QEMU with
    // the boot device the BMC has set (see machine.ts for why a reset in place is not used).
    '-no-shutdown',
    '-action', 'reboot=shutdown',
    '-m', String(spec.memoryMiB),
    '-smp', String(spec.cpus),
    '-uuid', spec.uuid,
    '-smbios', `type=1,serial=${spec.serial}`,
    '-drive', `file=${opt(spec.disk.path)},format=raw,if=none,id=${DISK_ID}-drive`,
    '-device', `virtio-blk-pci,drive=${DISK_ID}-drive,id=${DISK_ID},serial=${spec.serial}-0,bootindex=${indexIn(order, DISK_ID)}`,
    // A hardware RNG, as servers have (RDRAND, a TPM): QEMU's default CPU has none, and a guest kernel
    // without one starts its random pool seconds late, which a program asking for random bytes at
    // start (Node) waits for. Under TCG: the agent's first request ~1 s sooner.
    '-device', 'virtio-rng-pci',
  ];
  spec.nics.forEach((nic, i) => {
    const id = nicId(i);
    // Without a tap the NIC sits alone on its own hub: present (its ROM runs, its MAC is visible), unplugged.
    const backend = nic.tap ? `tap,id=${id}-backend,ifname=${nic.tap},script=no,downscript=no` : `hubport,id=${id}-backend,hubid=${i}`;
    args.push('-netdev', backend, '-device', `virtio-net-pci,netdev=${id}-backend,id=${id},mac=${nic.mac},speed=1000,duplex=full,bootindex=${indexIn(order, id)}`);
  });
  args.push('-drive', `if=none,id=${CDROM_ID}-drive,media=cdrom,readonly=on${cdrom ? `,format=raw,file=${opt(cdrom)}` : ''}`);
  args.push('-device', `ide-cd,drive=${CDROM_ID}-drive,id=${CDROM_ID},bootindex=${indexIn(order, CDROM_ID)}`);
  if (spec.ovmf) {
    args.push('-drive', `if=pflash,format=raw,unit=0,readonly=on,file=${opt(spec.ovmf.code)}`);
    args.push('-drive', `if=pflash,format=raw,unit=1,file=${opt(paths.ovmfVars)}`);
  }
  args.push(...spec.extraArgs);
  return args;
}

/** The local file behind a virtual media URL (`file://` or an absolute path), or null for anything else. */
export function localMediaPath(image: string | null): string | null {
  if (!image) return null;
  if (image.startsWith('file://')) return decodeURIComponent(new URL(image).pathname);
  return path.isAbsolute(image) ? image : null;
}
