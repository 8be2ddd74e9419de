import { gunzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import type { InventoryDisk } from '../../protocol/agent/inventory.js';
import { loadAgentConfig } from '../config.js';
import { fakeSystem } from '../fake-system.test-support.js';
import type { HardwareManager } from '../hardware/manager.js';
import { linuxHardwareManager } from '../hardware/linux.js';
import { defaultRootDisk } from './default.js';
import { buildInspectionPayload } from './payload.js';

const disk = (name: string, size: number): InventoryDisk => ({
  name, size, model: null, rotational: false, wwn: null, serial: null, vendor: null, wwn_with_extension: null, wwn_vendor_extension: null, hctl: null, by_path: null,
});

function machine() {
  return fakeSystem({
    files: {
      '/proc/cpuinfo': 'processor\t: 0\nmodel name\t: Sim\nphysical id\t: 0\n',
      '/proc/meminfo': 'MemTotal: 1048576 kB\n',
      '/sys/class/net/eth0/address': '52:54:00:00:00:01\n',
      '/sys/class/net/eth0/device/vendor': '0x1af4\n',
      '/sys/bus/pci/devices/0000:00:03.0/vendor': '0x1af4\n',
      '/sys/bus/pci/devices/0000:00:03.0/device': '0x1041\n',
      '/sys/bus/pci/devices/0000:00:03.0/class': '0x020000\n',
      '/sys/bus/pci/devices/0000:00:03.0/revision': '0x01\n',
      '/sys/bus/pci/devices/0000:00:00.0/vendor': '0x8086\n',
      '/sys/bus/pci/devices/0000:00:00.0/device': '0x29c0\n',
      '/var/log/boot.log': 'booted\n',
      '/var/log/notalog.txt': 'skip me\n',
    },
    tools: {
      lsblk: () => JSON.stringify({ blockdevices: [
        { name: 'sdb', size: 8 * 1024 ** 3, rota: false, type: 'disk' },
        { name: 'sda', size: 2 * 1024 ** 3, rota: false, type: 'disk' },
        { name: 'sdc', size: 100 * 1024 ** 3, rota: true, type: 'disk' },
      ] }),
      dmesg: () => '[    0.0] hello\n',
    },
  });
}

describe('defaultRootDisk', () => {
  it('picks the smallest disk of at least 4 GiB, or null', () => {
    expect(defaultRootDisk([disk('/dev/sda', 3 * 1024 ** 3), disk('/dev/sdb', 500e9), disk('/dev/sdc', 4 * 1024 ** 3)])?.name).toBe('/dev/sdc');
    expect(defaultRootDisk([disk('/dev/sda', 1024)])).toBeNull();
    expect(defaultRootDisk([])).toBeNull();
  });
});

describe('buildInspectionPayload', () => {
  it('assembles inventory, root disk, boot interface, configuration and each collector’s data', async () => {
    const system = machine();
    const config = loadAgentConfig('BOOTIF=01-52-54-00-00-00-01', ['--inspection-collectors=default,logs,pci-devices,extra-hardware']);
    const { payload, problems } = await buildInspectionPayload(config, linuxHardwareManager(system, { bootMac: config.bootMac }), system);
    expect(payload.error).toBeNull();
    expect(payload.collector_errors).toBeUndefined();
    expect(payload.root_disk?.name).toBe('/dev/sdb');
    expect(payload.boot_interface).toBe('52:54:00:00:00:01');
    expect(payload.inventory.boot.pxe_interface).toBe('52:54:00:00:00:01');
    expect(payload.configuration).toEqual({ collectors: ['default', 'logs', 'pci-devices', 'extra-hardware'], managers: [{ name: 'ingot_linux_hardware_manager', version: '1.0' }] });
    expect(payload.pci_devices).toEqual([
      { vendor_id: '8086', product_id: '29c0', bus: '0000:00:00.0' },
      { vendor_id: '1af4', product_id: '1041', class: '020000', revision: '01', bus: '0000:00:03.0' },
    ]);
    expect(payload.data).toEqual(expect.arrayContaining([
      ['cpu', 'physical', 'number', '1'],
      ['cpu', 'logical', 'number', '1'],
      ['memory', 'total', 'size', String(1048576 * 1024)],
      ['disk', 'sdb', 'size', '8'],
      ['network', 'eth0', 'serial', '52:54:00:00:00:01'],
    ]));
    // logs: base64 gzip of a ustar with dmesg, var/log/*.log only, and a note that journalctl is missing
    const tar = gunzipSync(Buffer.from(payload.logs as string, 'base64'));
    const names: string[] = [];
    for (let off = 0; off + 512 <= tar.length; ) {
      const name = tar.subarray(off, off + 100).toString('utf8').replace(/\0.*$/s, '');
      if (!name) break;
      names.push(name);
      const size = parseInt(tar.subarray(off + 124, off + 136).toString('ascii'), 8);
      off += 512 + Math.ceil(size / 512) * 512;
    }
    expect(names).toEqual(['dmesg', 'var/log/boot.log', 'collector-notes.txt']);
    expect(tar.toString('latin1')).toContain('journalctl not installed: journal omitted');
    // problems from the manager travel along
    expect(problems.length).toBeGreaterThan(0);
    expect(payload.inventory_problems).toEqual(problems);
  });

  it('records a failing or unknown collector and runs the others', async () => {
    const system = fakeSystem({ files: { '/proc/cpuinfo': 'processor\t: 0\n' } }); // no /sys/bus/pci
    const config = loadAgentConfig('ipa-inspection-collectors=pci-devices,nosuch,default', []);
    const { payload } = await buildInspectionPayload(config, linuxHardwareManager(system), system);
    expect(Object.keys(payload.collector_errors ?? {})).toEqual(['pci-devices', 'nosuch']);
    expect(payload.collector_errors?.['pci-devices']).toMatch(/\/sys\/bus\/pci\/devices unreadable/);
    expect(payload.collector_errors?.nosuch).toMatch(/unknown collector "nosuch"/);
    expect(payload).toHaveProperty('root_disk', null);
    expect(payload.inventory.cpu.count).toBe(1);
  });

  it('sends error and an empty inventory when the hardware manager itself throws', async () => {
    const broken: HardwareManager = { name: 'broken', version: '0', collectInventory: async () => { throw new Error('boom'); }, listInterfaces: async () => [] };
    const system = fakeSystem();
    const { payload } = await buildInspectionPayload(loadAgentConfig('', []), broken, system);
    expect(payload.error).toBe('hardware manager broken failed: boom');
    expect(payload.inventory.interfaces).toEqual([]);
  });
});
