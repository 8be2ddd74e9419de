import { describe, expect, it } from 'vitest';
import { cpuArch, cpuCount, localGb, mapInspection, portsOf, withBootModeCapability, type RedfishInventory } from './inspect-mapping.js';

const GB = 1_000_000_000;
const GIB = 1024 ** 3;

function inventory(over: Partial<RedfishInventory> = {}): RedfishInventory {
  return {
    system: {
      ProcessorSummary: { Count: 2, LogicalProcessorCount: 32 },
      MemorySummary: { TotalSystemMemoryGiB: 128 },
      Boot: { BootSourceOverrideMode: 'UEFI' },
    },
    processors: [{ ProcessorType: 'CPU', ProcessorArchitecture: 'x86', InstructionSet: 'x86-64', TotalCores: 8, TotalThreads: 16 }],
    memory: [],
    storage: [{ drives: [{ CapacityBytes: 240 * GB }, { CapacityBytes: 4000 * GB }], volumes: [] }],
    simpleStorage: [],
    ethernetInterfaces: [
      { MACAddress: '52:54:00:AA:BB:01', Status: { State: 'Enabled' } },
      { MACAddress: '52:54:00:AA:BB:02', Status: { State: 'Enabled' } },
    ],
    ...over,
  };
}

describe('Redfish inspection mapping', () => {
  it('maps the resources onto properties and ports, keeping other properties', () => {
    const result = mapInspection(inventory(), { vendor: 'acme', cpus: 1 });
    expect(result.properties).toEqual({
      vendor: 'acme', cpus: 32, cpu_arch: 'x86_64', memory_mb: 131072, local_gb: Math.floor((240 * GB) / GIB - 1), capabilities: 'boot_mode:uefi',
    });
    expect(result.ports).toEqual([{ address: '52:54:00:aa:bb:01', pxe_enabled: true }, { address: '52:54:00:aa:bb:02', pxe_enabled: false }]);
    expect(result.missing).toEqual([]);
  });

  it('counts CPUs from threads, cores or sockets when there is no logical count', () => {
    expect(cpuCount({}, [{ TotalThreads: 8 }, { TotalThreads: 8 }, { ProcessorType: 'GPU', TotalThreads: 99 }])).toBe(16);
    expect(cpuCount({}, [{ TotalCores: 4 }])).toBe(4);
    expect(cpuCount({ ProcessorSummary: { Count: 2 } }, [])).toBe(2);
    expect(cpuCount({}, [])).toBeNull();
  });

  it('maps architectures', () => {
    expect(cpuArch([{ InstructionSet: 'x86' }])).toBe('x86_64');
    expect(cpuArch([{ InstructionSet: 'ARM-A64', ProcessorArchitecture: 'ARM' }])).toBe('aarch64');
    expect(cpuArch([{ ProcessorArchitecture: 'x86' }])).toBe('x86_64');
    expect(cpuArch([{ ProcessorType: 'GPU', InstructionSet: 'ARM-A64' }])).toBeNull();
  });

  it('computes local_gb as Ironic: smallest disk of at least 4 GiB, volumes before drives, GiB minus one', () => {
    expect(localGb({ storage: [{ drives: [{ CapacityBytes: 2 * GIB }, { CapacityBytes: 100 * GIB }, { CapacityBytes: 50 * GIB }], volumes: [] }], simpleStorage: [] })).toBe(49);
    expect(localGb({ storage: [{ drives: [{ CapacityBytes: 50 * GIB }], volumes: [{ CapacityBytes: 20 * GIB }] }], simpleStorage: [] })).toBe(19);
    expect(localGb({ storage: [], simpleStorage: [{ Devices: [{ CapacityBytes: 30 * GIB }, { CapacityBytes: 10 * GIB, Status: { State: 'Absent' } }] }] })).toBe(29);
    expect(localGb({ storage: [{ drives: [{ CapacityBytes: 50 * GIB }], volumes: [] }], simpleStorage: [{ Devices: [{ CapacityBytes: 30 * GIB }] }] })).toBe(29);
    expect(localGb({ storage: [{ drives: [{ CapacityBytes: GIB }], volumes: [] }], simpleStorage: [] })).toBe(0);
  });

  it('falls back to the DIMMs for memory and reports what is missing', () => {
    const result = mapInspection(inventory({ system: {}, processors: [], memory: [{ CapacityMiB: 8192 }, { CapacityMiB: 8192, Status: { State: 'Absent' } }] }), {});
    expect(result.properties['memory_mb']).toBe(8192);
    expect(result.missing).toEqual(['cpus', 'cpu_arch']);
  });

  it('adds the boot_mode capability only when absent, in the form it finds', () => {
    expect(withBootModeCapability(undefined, 'uefi')).toBe('boot_mode:uefi');
    expect(withBootModeCapability('secure_boot:true', 'bios')).toBe('secure_boot:true,boot_mode:bios');
    expect(withBootModeCapability('boot_mode:bios', 'uefi')).toBe('boot_mode:bios');
    expect(withBootModeCapability({ foo: 'bar' }, 'uefi')).toEqual({ foo: 'bar', boot_mode: 'uefi' });
  });

  it('reports enabled NICs with a MAC, lower case, once each', () => {
    expect(portsOf([
      { MACAddress: 'AA-BB-CC-DD-EE-01', Status: { State: 'Disabled' } },
      { PermanentMACAddress: 'AA:BB:CC:DD:EE:02' },
      { MACAddress: 'aa:bb:cc:dd:ee:02' },
      { MACAddress: '00:00:00:00:00:00' },
      { Name: 'no mac' },
    ])).toEqual([{ address: 'aa:bb:cc:dd:ee:02', pxe_enabled: true }]);
  });
});
