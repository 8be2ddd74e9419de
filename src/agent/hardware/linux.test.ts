import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { fakeSystem, type FakeSystemSpec } from '../fake-system.test-support.js';
import { hostSystem } from '../system.js';
import { linuxHardwareManager } from './linux.js';

const LSBLK = JSON.stringify({
  blockdevices: [
    { name: 'sda', model: 'SIM SSD', size: 480e9, rota: false, wwn: '0x5000c500a1b2c3d4', serial: 'S1', vendor: 'ATA', hctl: '0:0:0:0', type: 'disk', uuid: null },
    { name: 'sdb', model: 'SIM HDD', size: 4e12, rota: true, wwn: null, serial: 'S2', vendor: 'ATA', hctl: '0:0:1:0', type: 'disk', uuid: null },
  ],
});

/** A complete small machine: one socket, 2 CPUs, 4 GiB, two disks, one NIC plus a bridge, UEFI, a BMC. */
function fullMachine(): FakeSystemSpec {
  return {
    files: {
      '/proc/cpuinfo': 'processor\t: 0\nmodel name\t: Sim CPU\ncpu MHz\t\t: 1000.0\nphysical id\t: 0\nflags\t\t: fpu lm\n\nprocessor\t: 1\nmodel name\t: Sim CPU\nphysical id\t: 0\n',
      '/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq': '3500000\n',
      '/proc/meminfo': 'MemTotal:        4000000 kB\n',
      '/sys/devices/system/memory/block_size_bytes': '8000000\n',
      '/sys/devices/system/memory/memory0/online': '1\n',
      '/sys/devices/system/memory/memory1/online': '1\n',
      '/sys/devices/system/memory/memory2/online': '0\n',
      '/sys/class/net/eth0/address': '52:54:00:AA:BB:CC\n',
      '/sys/class/net/eth0/carrier': '1\n',
      '/sys/class/net/eth0/speed': '10000\n',
      '/sys/class/net/eth0/device/vendor': '0x8086\n',
      '/sys/class/net/eth0/device/device': '0x1572\n',
      '/sys/class/net/br0/address': '02:00:00:00:00:01\n',
      '/sys/class/net/lo/address': '00:00:00:00:00:00\n',
      '/sys/class/dmi/id/sys_vendor': 'Ingot Simulated\n',
      '/sys/class/dmi/id/product_name': 'Sim 1U\n',
      '/sys/class/dmi/id/product_serial': 'SIM000001\n',
      '/sys/class/dmi/id/bios_vendor': 'EDK II\n',
      '/sys/class/dmi/id/bios_version': '1.0\n',
      '/sys/class/dmi/id/bios_date': '01/01/2026\n',
      '/dev/ipmi0': '',
    },
    links: { '/dev/disk/by-path/pci-0000:00:1f.2-ata-1': '../../sda', '/dev/disk/by-path/pci-0000:00:1f.2-ata-1-part1': '../../sda1' },
    dirs: ['/sys/firmware/efi'],
    tools: {
      lsblk: () => LSBLK,
      ipmitool: (args) => (args.join(' ') === 'lan print' ? 'IP Address              : 10.0.0.9\nMAC Address             : aa:bb:cc:00:11:22\n' : { ok: false, error: 'bad args' }),
    },
    addresses: { eth0: [{ family: 'IPv4', address: '192.0.2.10', internal: false }] },
    hostname: 'node-1',
  };
}

describe('linuxHardwareManager on a fake machine', () => {
  it('reads every fact and reports no problem', async () => {
    const { inventory, problems } = await linuxHardwareManager(fakeSystem(fullMachine()), { bootMac: '52:54:00:aa:bb:cc' }).collectInventory();
    expect(problems).toEqual([]);
    expect(inventory.cpu).toEqual({ model_name: 'Sim CPU', frequency: '3500', count: 2, flags: ['fpu', 'lm'], socket_count: 1, architecture: 'x86_64' });
    expect(inventory.memory).toEqual({ total: 4000000 * 1024, physical_mb: 256 });
    expect(inventory.disks.map((d) => [d.name, d.size, d.by_path])).toEqual([
      ['/dev/sda', 480e9, '/dev/disk/by-path/pci-0000:00:1f.2-ata-1'],
      ['/dev/sdb', 4e12, null],
    ]);
    expect(inventory.interfaces).toEqual([
      { name: 'eth0', mac_address: '52:54:00:aa:bb:cc', ipv4_address: '192.0.2.10', ipv6_address: null, has_carrier: true, lldp: null, vendor: '0x8086', product: '0x1572', biosdevname: null, client_id: null, speed_mbps: 10000 },
    ]);
    expect(inventory.system_vendor).toEqual({ manufacturer: 'Ingot Simulated', product_name: 'Sim 1U', serial_number: 'SIM000001', firmware: { vendor: 'EDK II', version: '1.0', build_date: '01/01/2026' } });
    expect(inventory.boot).toEqual({ current_boot_mode: 'uefi', pxe_interface: '52:54:00:aa:bb:cc' });
    expect(inventory.bmc_address).toBe('10.0.0.9');
    expect(inventory.bmc_mac).toBe('aa:bb:cc:00:11:22');
    expect(inventory.hostname).toBe('node-1');
  });

  it('lists the network interfaces alone, as the inventory has them, without running a tool', async () => {
    const system = fakeSystem(fullMachine());
    const manager = linuxHardwareManager(system);
    const interfaces = await manager.listInterfaces();
    expect(system.calls).toEqual([]);
    expect(interfaces).toEqual((await manager.collectInventory()).inventory.interfaces);
    expect(interfaces.map((i) => i.mac_address)).toEqual(['52:54:00:aa:bb:cc']);
  });

  it('prefers SMBIOS memory devices, then dmidecode, over memory blocks', async () => {
    const spec = fullMachine();
    spec.tools = { ...spec.tools, dmidecode: () => '\tSize: 8 GB\n\tSize: 8 GB\n' };
    const { inventory } = await linuxHardwareManager(fakeSystem(spec)).collectInventory();
    expect(inventory.memory.physical_mb).toBe(16384);
  });

  it('degrades to a problem per missing tool or file, never throws', async () => {
    const spec = fullMachine();
    spec.tools = {};
    const { inventory, problems } = await linuxHardwareManager(fakeSystem(spec), { collectLldp: true }).collectInventory();
    expect(inventory.disks).toEqual([]);
    expect(inventory.bmc_address).toBeNull();
    expect(problems).toContain('lsblk not found: disks unknown (install util-linux)');
    expect(problems).toContain('ipmitool not found: BMC address unknown (install ipmitool)');
    expect(problems.some((p) => p.startsWith('LLDP collection is not implemented'))).toBe(true);
  });

  it('reports a failing lsblk and an empty machine without crashing', async () => {
    const { inventory, problems } = await linuxHardwareManager(fakeSystem({ tools: { lsblk: () => ({ ok: false, error: 'lsblk: exit status 1' }) } })).collectInventory();
    expect(inventory.cpu.count).toBe(0);
    expect(inventory.memory).toEqual({ total: 0, physical_mb: null });
    expect(inventory.interfaces).toEqual([]);
    expect(inventory.system_vendor).toEqual({ manufacturer: '', product_name: '', serial_number: '' });
    expect(inventory.boot.current_boot_mode).toBe('bios');
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/proc\/cpuinfo unreadable/),
        expect.stringMatching(/^\/proc\/meminfo unreadable/),
        expect.stringMatching(/^installed memory unknown/),
        'lsblk failed: disks unknown (lsblk: exit status 1)',
        expect.stringMatching(/^\/sys\/class\/net unreadable/),
        expect.stringMatching(/^\/sys\/class\/dmi\/id unreadable/),
        expect.stringMatching(/^no IPMI device/),
      ]),
    );
  });

  it('runs against an empty root directory with an empty PATH (the real file and process code)', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'ingot-agent-root-'));
    try {
      const system = hostSystem({ root, searchPath: '' });
      const { inventory, problems } = await linuxHardwareManager(system).collectInventory();
      expect(inventory.disks).toEqual([]);
      expect(inventory.cpu.count).toBe(0);
      expect(problems).toContain('lsblk not found: disks unknown (install util-linux)');
      expect(problems.length).toBeGreaterThanOrEqual(6);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
