/**
 * Hardware profiles for simulated fleets: varied but deterministic, so machine `i` of a fleet always has
 * the same CPUs, memory, disks and MACs (tests and inventories can rely on them).
 */
import { createHash } from 'node:crypto';
import type { HardwareProfile, SwitchPort } from '../protocol/hardware/profile.js';

const SHAPES = [
  { model: 'Simulated Compact 1U', cpus: 4, cpu: 'Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz', mhz: 2400, memory_mib: 16384, disks: [480], nics: 2 },
  { model: 'Simulated Compute 1U', cpus: 16, cpu: 'Intel(R) Xeon(R) Gold 6226R CPU @ 2.90GHz', mhz: 2900, memory_mib: 131072, disks: [960, 960], nics: 2 },
  { model: 'Simulated Storage 2U', cpus: 8, cpu: 'AMD EPYC 7302P 16-Core Processor', mhz: 3000, memory_mib: 65536, disks: [240, 4000, 4000, 4000], nics: 4 },
  { model: 'Simulated GPU 4U', cpus: 32, cpu: 'AMD EPYC 7543 32-Core Processor', mhz: 2800, memory_mib: 262144, disks: [1920], nics: 2 },
] as const;

/** Two bytes derived from `seed`, as a MAC fragment. */
function hex(seed: string, bytes: number): string[] {
  const digest = createHash('sha256').update(seed).digest();
  return [...digest.subarray(0, bytes)].map((b) => b.toString(16).padStart(2, '0'));
}

/** A MAC in the locally administered QEMU range 52:54:00, unique per (fleet index, NIC). */
export function simulatedMac(index: number, nic: number): string {
  const n = index * 8 + nic;
  return ['52', '54', '00', ((n >> 16) & 0xff).toString(16).padStart(2, '0'), ((n >> 8) & 0xff).toString(16).padStart(2, '0'), (n & 0xff).toString(16).padStart(2, '0')].join(':');
}

/** The top-of-rack switch port NIC `nic` (0 or 1) of machine `index` is cabled to: racks of 48 machines. */
export function simulatedSwitchPort(index: number, nic: number): SwitchPort {
  const rack = Math.floor(index / 48);
  const side = nic === 0 ? 'a' : 'b';
  return { switch_id: ['02', ...hex(`rack${rack}-${side}`, 5)].join(':'), port_id: `Ethernet1/${(index % 48) + 1}`, switch_name: `tor${rack}${side}` };
}

/** The profile of machine `index` of a simulated fleet named `prefix`. */
export function simulatedProfile(index: number, prefix = 'sim'): HardwareProfile {
  const shape = SHAPES[index % SHAPES.length] as (typeof SHAPES)[number];
  const id = hex(`${prefix}-${index}`, 16).join('');
  const uuid = `${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-8${id.slice(17, 20)}-${id.slice(20, 32)}`;
  return {
    manufacturer: 'Ingot Simulated',
    model: shape.model,
    serial_number: `SIM${String(index).padStart(6, '0')}`,
    system_uuid: uuid,
    cpu: { count: shape.cpus, model_name: shape.cpu, frequency_mhz: shape.mhz, architecture: 'x86_64', flags: ['fpu', 'vme', 'lm', 'sse2', 'vmx', 'aes', 'avx2'] },
    memory_mib: shape.memory_mib,
    disks: shape.disks.map((gb, d) => ({
      name: `/dev/sd${String.fromCharCode(97 + d)}`,
      size_bytes: gb * 1_000_000_000,
      model: gb >= 4000 ? 'SIM HDD 4TB' : 'SIM SSD',
      vendor: 'INGOT',
      serial: `SIMDISK${index}-${d}`,
      rotational: gb >= 4000,
      wwn: `0x5000c500${hex(`${prefix}-${index}-disk-${d}`, 4).join('')}`,
    })),
    // Every machine's first two NICs are cabled to a pair of top-of-rack switches (48 ports each, one pair per rack).
    nics: Array.from({ length: shape.nics }, (_, n) => ({
      name: `eth${n}`, mac: simulatedMac(index, n), speed_mbps: n < 2 ? 10000 : 25000, pxe_enabled: n === 0,
      ...(n < 2 ? { switch_port: simulatedSwitchPort(index, n) } : {}),
    })),
    boot_mode: index % 5 === 4 ? 'bios' : 'uefi',
  };
}
