/**
 * The description of one QEMU machine, its defaults, and the hardware profile derived from it. The
 * profile is what the BMC emulators answer out-of-band inspection with, so every value in it is also
 * given to QEMU (UUID, serial numbers, MACs, sizes) and the guest sees the same machine.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { HardwareProfile } from '../../protocol/hardware/profile.js';
import { fail } from '../../shared/errors.js';
import { isMac } from '../../shared/mac.js';
import type { MachineFaults } from '../machine.js';

/** One NIC: its MAC and, optionally, the host tap device it is plugged into. */
export interface QemuNicSpec {
  mac: string;
  /** Host tap interface (created beforehand); without it the NIC is present but connected to nothing. */
  tap?: string;
}

/** What {@link qemuMachine} builds a VM from. */
export interface QemuMachineSpec {
  name: string;
  username: string;
  password: string;
  /** Holds the QMP socket, the PID file, the serial log and QEMU's own log. Created if missing. */
  workDir: string;
  /** The VM's one disk (virtio, /dev/vda in the guest); a missing file is created sparse and raw. */
  disk: { path: string; sizeBytes: number };
  /** Default 512 (a Node ramdisk needs at least that). */
  memoryMiB?: number;
  /** Default 1. */
  cpus?: number;
  nics?: QemuNicSpec[];
  /** `bios` (SeaBIOS, default) or `uefi` (OVMF; fails clearly when no OVMF firmware is installed). */
  bootMode?: 'bios' | 'uefi';
  /** Accelerator: `tcg` (default; emulation, works everywhere) or `kvm` (only where a probe showed it boots ordinary kernels). */
  accel?: 'tcg' | 'kvm';
  /** Default `qemu-system-x86_64`. */
  qemuBinary?: string;
  /** Appended to QEMU's command line. */
  extraArgs?: string[];
  /** SMBIOS system UUID; default derived from the name. */
  uuid?: string;
  /** OVMF code and variables template; default the first pair found under /usr/share/OVMF. */
  ovmf?: { code: string; vars: string };
  faults?: Partial<MachineFaults>;
}

/** The spec with every default filled in. */
export type ResolvedQemuSpec = Required<Omit<QemuMachineSpec, 'faults' | 'ovmf'>> & {
  nics: QemuNicSpec[];
  ovmf: { code: string; vars: string } | null;
  serial: string;
};

// NOTE: Debian's `ovmf` package; the 4M pair is what current OVMF builds default to.
const OVMF_CANDIDATES = [
  { code: '/usr/share/OVMF/OVMF_CODE_4M.fd', vars: '/usr/share/OVMF/OVMF_VARS_4M.fd' },
  { code: '/usr/share/OVMF/OVMF_CODE.fd', vars: '/usr/share/OVMF/OVMF_VARS.fd' },
];

/** A stable UUID (version-4 layout) derived from the machine name. */
export function uuidFromName(name: string): string {
  const id = createHash('sha256').update(`qemu:${name}`).digest('hex');
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-8${id.slice(17, 20)}-${id.slice(20, 32)}`;
}

/** Validates `spec` and fills in its defaults. */
export function resolveSpec(spec: QemuMachineSpec): ResolvedQemuSpec {
  const machine = spec.name;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(spec.name)) throw fail('qemuNameInvalid', { machine });
  if (!Number.isSafeInteger(spec.disk.sizeBytes) || spec.disk.sizeBytes <= 0) throw fail('qemuDiskSizeInvalid', { machine });
  const memoryMiB = spec.memoryMiB ?? 512;
  const cpus = spec.cpus ?? 1;
  if (!Number.isInteger(memoryMiB) || memoryMiB < 16) throw fail('qemuMemoryInvalid', { machine });
  if (!Number.isInteger(cpus) || cpus < 1) throw fail('qemuCpusInvalid', { machine });
  const nics = (spec.nics ?? []).map((nic) => ({ ...nic, mac: nic.mac.toLowerCase() }));
  for (const nic of nics) {
    if (!isMac(nic.mac)) throw fail('qemuMacInvalid', { machine, mac: nic.mac });
    if (nic.tap !== undefined && !/^[A-Za-z0-9._-]{1,15}$/.test(nic.tap)) throw fail('qemuTapInvalid', { machine, tap: nic.tap });
  }
  const uuid = (spec.uuid ?? uuidFromName(spec.name)).toLowerCase();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid)) throw fail('qemuUuidInvalid', { machine, uuid });
  const bootMode = spec.bootMode ?? 'bios';
  let ovmf: ResolvedQemuSpec['ovmf'] = null;
  if (bootMode === 'uefi') {
    ovmf = spec.ovmf ?? OVMF_CANDIDATES.find((c) => existsSync(c.code) && existsSync(c.vars)) ?? null;
    if (!ovmf || !existsSync(ovmf.code) || !existsSync(ovmf.vars)) {
      throw fail('qemuOvmfMissing', { machine, firmware: ovmf?.code ?? OVMF_CANDIDATES.map((c) => c.code).join(' or ') });
    }
  }
  return {
    name: spec.name,
    username: spec.username,
    password: spec.password,
    workDir: spec.workDir,
    disk: spec.disk,
    memoryMiB,
    cpus,
    nics,
    bootMode,
    accel: spec.accel ?? 'tcg',
    qemuBinary: spec.qemuBinary ?? 'qemu-system-x86_64',
    extraArgs: spec.extraArgs ?? [],
    uuid,
    ovmf,
    // SMBIOS chassis/system serial; virtio-blk serials are limited to 20 bytes, so keep it short.
    serial: `QM${createHash('sha256').update(spec.name).digest('hex').slice(0, 10).toUpperCase()}`,
  };
}

// NOTE: what QEMU 7.2's `pc` machine with TCG's default CPU model (qemu64) shows the guest: SMBIOS
// type 1 "QEMU" / the machine description, type 4 speed 2000 MHz, and qemu64's CPUID flags.
const QEMU64_FLAGS = ['fpu', 'de', 'pse', 'tsc', 'msr', 'pae', 'mce', 'cx8', 'apic', 'sep', 'mtrr', 'pge', 'mca', 'cmov', 'pat', 'pse36', 'clflush', 'mmx', 'fxsr', 'sse', 'sse2', 'syscall', 'nx', 'lm', 'pni', 'cx16', 'hypervisor', 'lahf_lm', 'svm'];

/** The hardware profile the VM of `spec` presents. */
export function qemuProfile(spec: ResolvedQemuSpec): HardwareProfile {
  return {
    manufacturer: 'QEMU',
    model: 'Standard PC (i440FX + PIIX, 1996)',
    serial_number: spec.serial,
    system_uuid: spec.uuid,
    cpu: { count: spec.cpus, model_name: 'QEMU Virtual CPU version 2.5+', frequency_mhz: 2000, architecture: 'x86_64', flags: QEMU64_FLAGS },
    memory_mib: spec.memoryMiB,
    disks: [
      // Linux's virtio_blk does not mark the queue non-rotational, so the guest reports rotational=1.
      { name: '/dev/vda', size_bytes: spec.disk.sizeBytes, model: '', vendor: '0x1af4', serial: `${spec.serial}-0`, rotational: true, wwn: null },
    ],
    nics: spec.nics.map((nic, i) => ({ name: `eth${i}`, mac: nic.mac, speed_mbps: 1000, pxe_enabled: true })),
    boot_mode: spec.bootMode,
  };
}
