import { describe, it, expect } from 'vitest';
import { simulatedHardwareManager } from '../../src/agent/hardware/simulated.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';

describe('simulated hardware manager', () => {
  it('reports the counts, sizes and MACs of simulatedProfile(3)', async () => {
    const profile = simulatedProfile(3);
    const manager = simulatedHardwareManager(profile, { bmcAddress: '127.0.0.1' });
    const { inventory, problems } = await manager.collectInventory();
    expect(problems).toEqual([]);
    expect(inventory.cpu.count).toBe(profile.cpu.count);
    expect(inventory.cpu.model_name).toBe(profile.cpu.model_name);
    expect(inventory.memory.physical_mb).toBe(profile.memory_mib);
    expect(inventory.memory.total).toBe(profile.memory_mib * 1024 * 1024);
    expect(inventory.disks.map((d) => [d.name, d.size, d.serial])).toEqual(profile.disks.map((d) => [d.name, d.size_bytes, d.serial]));
    expect(inventory.interfaces.map((i) => i.mac_address)).toEqual(profile.nics.map((n) => n.mac));
    expect(inventory.boot).toEqual({ current_boot_mode: profile.boot_mode, pxe_interface: profile.nics.find((n) => n.pxe_enabled)?.mac });
    expect(inventory.system_vendor).toEqual({ manufacturer: profile.manufacturer, product_name: profile.model, serial_number: profile.serial_number });
    expect(inventory.bmc_address).toBe('127.0.0.1');
  });

  it('is deterministic and differs between machines', async () => {
    const a = await simulatedHardwareManager(simulatedProfile(3)).collectInventory();
    const b = await simulatedHardwareManager(simulatedProfile(3)).collectInventory();
    const c = await simulatedHardwareManager(simulatedProfile(4)).collectInventory();
    expect(a).toEqual(b);
    expect(c.inventory.interfaces[0]?.mac_address).not.toBe(a.inventory.interfaces[0]?.mac_address);
  });
});
