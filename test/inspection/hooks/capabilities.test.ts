import { describe, it, expect } from 'vitest';
import { bootModeHook } from '../../../src/inspection/hooks/boot-mode.js';
import { cpuCapabilitiesHook } from '../../../src/inspection/hooks/cpu-capabilities.js';
import { pciDevicesHook } from '../../../src/inspection/hooks/pci-devices.js';
import { validateInspectionPayload } from '../../../src/inspection/validate.js';
import { hookContext, ipaSample } from '../processing-fixtures.js';

const sample = () => validateInspectionPayload(ipaSample());

describe('boot-mode', () => {
  it('sets the boot_mode capability, merged with existing ones', () => {
    expect(bootModeHook.run!(hookContext({ payload: sample() })).properties).toEqual({ capabilities: 'boot_mode:bios' });
    expect(bootModeHook.run!(hookContext({ payload: sample(), properties: { capabilities: 'boot_mode:uefi,node:compute-1' } })).properties)
      .toEqual({ capabilities: 'boot_mode:bios,node:compute-1' });
  });
});

describe('cpu-capabilities', () => {
  it('maps present flags with the default table', () => {
    // The sample CPU has aes, pse and pdpe1gb but no vmx/svm (nested virtualisation off) and no smx.
    expect(cpuCapabilitiesHook.run!(hookContext({ payload: sample(), properties: { capabilities: 'boot_mode:bios' } })).properties)
      .toEqual({ capabilities: 'boot_mode:bios,cpu_aes:true,cpu_hugepages:true,cpu_hugepages_1g:true' });
  });
  it('maps svm/vmx to cpu_vt and honours a custom table', () => {
    const body = sample();
    body.inventory.cpu.flags = ['svm', 'smx'];
    expect(cpuCapabilitiesHook.run!(hookContext({ payload: body })).properties).toEqual({ capabilities: 'cpu_vt:true,cpu_txt:true' });
    expect(cpuCapabilitiesHook.run!(hookContext({ payload: body, config: { cpu_capabilities: { smx: 'trusted' } } })).properties).toEqual({ capabilities: 'trusted:true' });
    body.inventory.cpu.flags = [];
    expect(cpuCapabilitiesHook.run!(hookContext({ payload: body })).properties).toBeUndefined();
  });
});

describe('pci-devices', () => {
  const aliases = [
    { vendor_id: '1af4', product_id: '1045', name: 'virtio_balloon' },
    { vendor_id: '1AF4', product_id: '1044', name: 'virtio_rng' },
    { vendor_id: '10de', product_id: '1eb8', name: 'gpu_t4' },
  ];
  it('counts aliased devices into capabilities (from plugin data pci_devices)', () => {
    const body = sample();
    (body.pci_devices as unknown[]).push({ vendor_id: '1af4', product_id: '1045', bus: '0000:00:09.0' });
    const r = pciDevicesHook.run!(hookContext({ payload: body, properties: { capabilities: 'boot_mode:bios' }, config: { pci_aliases: aliases } }));
    expect(r.properties).toEqual({ capabilities: 'boot_mode:bios,virtio_balloon:2,virtio_rng:1' });
  });
  it('does nothing without aliases or matches, and warns when devices are missing', () => {
    expect(pciDevicesHook.run!(hookContext({ payload: sample() }))).toEqual({});
    const body = sample();
    delete body.pci_devices;
    expect(pciDevicesHook.run!(hookContext({ payload: body, config: { pci_aliases: aliases } })).notes![0]!.level).toBe('warning');
  });
});
