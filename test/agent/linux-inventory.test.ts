// The Linux hardware manager on this very machine, checked against the system's own tools.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, it, expect } from 'vitest';
import type { Inventory } from '../../src/protocol/agent/inventory.js';
import { linuxHardwareManager } from '../../src/agent/hardware/linux.js';
import { hostSystem } from '../../src/agent/system.js';
import { ipaInventorySample } from '../fixtures/ipa-inventory-sample.js';

/** Runs a tool the check needs; a missing tool fails the test with an install hint. */
function tool(cmd: string, args: string[], pkg: string): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(' ')} failed; install ${pkg} (apt-get install ${pkg}): ${String(err)}`);
  }
}

let inventory: Inventory;
let problems: string[];

beforeAll(async () => {
  ({ inventory, problems } = await linuxHardwareManager(hostSystem()).collectInventory());
});

describe('linux hardware manager on this machine', () => {
  it('counts as many CPUs as nproc', () => {
    expect(inventory.cpu.count).toBe(Number(tool('nproc', [], 'coreutils').trim()));
    expect(inventory.cpu.architecture).toBe(tool('uname', ['-m'], 'coreutils').trim());
    expect(inventory.cpu.flags.length).toBeGreaterThan(0);
  });

  it('reports memory total within 5 % of MemTotal and a sensible installed size', () => {
    const memTotal = Number(/^MemTotal:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]) * 1024;
    expect(Math.abs(inventory.memory.total - memTotal) / memTotal).toBeLessThan(0.05);
    const physical = inventory.memory.physical_mb;
    expect(physical).not.toBeNull();
    // Installed memory is at least what the kernel manages and not wildly more (firmware/kernel reserve).
    expect((physical as number) * 1024 * 1024).toBeGreaterThanOrEqual(memTotal);
    expect((physical as number) * 1024 * 1024).toBeLessThan(memTotal * 1.25);
  });

  it('lists the TYPE disk devices of lsblk (without ram/loop/zram), names and sizes', () => {
    const doc = JSON.parse(tool('lsblk', ['-J', '-b', '-o', 'NAME,SIZE,TYPE'], 'util-linux')) as { blockdevices: { name: string; size: number | string; type: string }[] };
    const expected = doc.blockdevices
      .filter((d) => d.type === 'disk' && !/^(ram|loop|zram|nbd)\d*/.test(d.name))
      .map((d) => ({ name: `/dev/${d.name}`, size: Number(d.size) }));
    expect(expected.length).toBeGreaterThan(0);
    expect(inventory.disks.map((d) => ({ name: d.name, size: d.size }))).toEqual(expected);
  });

  it('lists the interfaces of ip link, without lo and virtual links, with their MACs', () => {
    const links = JSON.parse(tool('ip', ['-j', 'link'], 'iproute2')) as { ifname: string; address?: string }[];
    const withoutLo = links.filter((l) => l.ifname !== 'lo');
    // Like IPA, only links backed by a device are reported (bridges, ifb, veth… are left out).
    const physical = withoutLo.filter((l) => existsSync(`/sys/class/net/${l.ifname}/device`));
    expect(physical.length).toBeGreaterThan(0);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(inventory.interfaces.map((i) => ({ name: i.name, mac: i.mac_address })).sort(byName)).toEqual(
      physical.map((l) => ({ name: l.ifname, mac: l.address })).sort(byName),
    );
    const left = withoutLo.filter((l) => !physical.includes(l)).map((l) => l.ifname);
    for (const name of left) expect(existsSync(`/sys/devices/virtual/net/${name}`)).toBe(true);
  });

  it('reports the boot mode the firmware booted in, and the host name', () => {
    expect(inventory.boot.current_boot_mode).toBe(existsSync('/sys/firmware/efi') ? 'uefi' : 'bios');
    expect(inventory.hostname).toBe(tool('hostname', [], 'hostname').trim());
  });

  it('has every field the real IPA inventory sample has (same shape for Ironic’s processing)', () => {
    const sample = ipaInventorySample() as { inventory: Record<string, unknown> & { disks: object[]; interfaces: object[] } };
    const keys = (o: object) => Object.keys(o).sort();
    const ours = inventory as unknown as Record<string, unknown>;
    expect(keys(ours)).toEqual(expect.arrayContaining(keys(sample.inventory)));
    for (const k of ['cpu', 'memory', 'boot', 'system_vendor']) {
      expect(keys(ours[k] as object)).toEqual(expect.arrayContaining(keys(sample.inventory[k] as object)));
    }
    expect(keys(inventory.disks[0] as object)).toEqual(expect.arrayContaining(keys(sample.inventory.disks[0] as object)));
    expect(keys(inventory.interfaces[0] as object)).toEqual(expect.arrayContaining(keys(sample.inventory.interfaces[0] as object)));
  });

  it('explains what it could not read instead of failing', () => {
    for (const p of problems) expect(p).toMatch(/: /);
    if (!existsSync('/dev/ipmi0')) expect(problems.some((p) => p.startsWith('no IPMI device'))).toBe(true);
  });
});
