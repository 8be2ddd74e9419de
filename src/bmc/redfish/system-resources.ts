/**
 * The ComputerSystem of a machine and its read-only sub-resources (Processors, Memory, SimpleStorage,
 * Storage/Drives, EthernetInterfaces), rendered from the machine's hardware profile so that Redfish
 * inspection and the agent's inventory describe the same hardware. Shapes follow DMTF's schemas and
 * sushy-tools' emulator templates, which sushy and Ironic's redfish driver parse.
 */
import type { BootOverride, Machine, MachineBootDevice, MachinePower } from '../machine.js';
import { collection, odata, ref, seg, V1 } from './odata.js';

/** Redfish `BootSourceOverrideTarget` of each machine boot device. */
export const BOOT_TARGETS: Record<MachineBootDevice, string> = { none: 'None', pxe: 'Pxe', disk: 'Hdd', cdrom: 'Cd', bios: 'BiosSetup' };
export const BOOT_ENABLED = ['Disabled', 'Once', 'Continuous'] as const;
export const BOOT_MODES: Record<BootOverride['mode'], string> = { uefi: 'UEFI', legacy: 'Legacy' };

/** The `ResetType`s of `#ComputerSystem.Reset`. */
export const RESET_TYPES = ['On', 'ForceOff', 'GracefulShutdown', 'GracefulRestart', 'ForceRestart', 'Nmi', 'ForceOn', 'PushPowerButton', 'PowerCycle'] as const;
export type ResetType = (typeof RESET_TYPES)[number];

const OK = { State: 'Enabled', Health: 'OK' };

export function systemUri(m: Machine): string {
  return `${V1}/Systems/${seg(m.name)}`;
}

/** The Manager id of a machine's BMC. */
export function managerId(m: Machine): string {
  return `${m.name}-bmc`;
}

export function managerUri(m: Machine): string {
  return `${V1}/Managers/${seg(managerId(m))}`;
}

export function chassisUri(m: Machine): string {
  return `${V1}/Chassis/${seg(m.name)}`;
}

/** Processor sockets: bigger machines have two, each with half the logical CPUs. */
function sockets(m: Machine): number {
  return m.profile.cpu.count >= 16 ? 2 : 1;
}

/** DIMMs of the machine: 16 GiB modules up to 16 slots, bigger modules beyond. */
function dimms(m: Machine): { count: number; mib: number } {
  const count = Math.max(1, Math.min(16, Math.floor(m.profile.memory_mib / 16384)));
  return { count, mib: Math.floor(m.profile.memory_mib / count) };
}

function cpuVendor(model: string): string {
  if (/intel/i.test(model)) return 'Intel(R) Corporation';
  if (/amd/i.test(model)) return 'Advanced Micro Devices, Inc.';
  return 'Unknown';
}

/** The ComputerSystem resource (ComputerSystem.v1_13_0). */
export function renderSystem(m: Machine, power: MachinePower): Record<string, unknown> {
  const uri = systemUri(m);
  const boot = m.bootOverride();
  const p = m.profile;
  return {
    ...odata(uri, '#ComputerSystem.v1_13_0.ComputerSystem'),
    Id: m.name,
    Name: m.name,
    Description: 'Computer System',
    SystemType: 'Physical',
    UUID: p.system_uuid,
    Manufacturer: p.manufacturer,
    Model: p.model,
    SerialNumber: p.serial_number,
    SKU: p.model,
    HostName: m.name,
    BiosVersion: '1.0.0',
    PowerState: power === 'on' ? 'On' : 'Off',
    Status: { State: 'Enabled', Health: 'OK', HealthRollup: 'OK' },
    Boot: {
      BootSourceOverrideTarget: BOOT_TARGETS[boot.device],
      'BootSourceOverrideTarget@Redfish.AllowableValues': Object.values(BOOT_TARGETS),
      BootSourceOverrideEnabled: boot.device === 'none' ? 'Disabled' : boot.persistence === 'once' ? 'Once' : 'Continuous',
      'BootSourceOverrideEnabled@Redfish.AllowableValues': [...BOOT_ENABLED],
      BootSourceOverrideMode: BOOT_MODES[boot.mode],
      'BootSourceOverrideMode@Redfish.AllowableValues': Object.values(BOOT_MODES),
    },
    ProcessorSummary: {
      Count: sockets(m),
      LogicalProcessorCount: p.cpu.count,
      Model: p.cpu.model_name,
      Status: { State: 'Enabled', Health: 'OK', HealthRollup: 'OK' },
    },
    MemorySummary: {
      TotalSystemMemoryGiB: p.memory_mib / 1024,
      Status: { State: 'Enabled', Health: 'OK', HealthRollup: 'OK' },
    },
    Processors: ref(`${uri}/Processors`),
    Memory: ref(`${uri}/Memory`),
    SimpleStorage: ref(`${uri}/SimpleStorage`),
    Storage: ref(`${uri}/Storage`),
    EthernetInterfaces: ref(`${uri}/EthernetInterfaces`),
    Links: { Chassis: [ref(chassisUri(m))], ManagedBy: [ref(managerUri(m))] },
    Actions: {
      '#ComputerSystem.Reset': {
        target: `${uri}/Actions/ComputerSystem.Reset`,
        'ResetType@Redfish.AllowableValues': [...RESET_TYPES],
      },
    },
  };
}

/**
 * A read-only sub-resource of the system at `segments` below its URI (e.g. `['Processors', 'CPU1']`),
 * or undefined when there is none.
 */
export function renderSystemPart(m: Machine, segments: string[]): Record<string, unknown> | undefined {
  const base = systemUri(m);
  const uri = `${base}/${segments.map(seg).join('/')}`;
  const p = m.profile;
  const [kind, id, sub, subId, ...rest] = segments;
  if (rest.length > 0) return undefined;

  if (kind === 'Processors' && sub === undefined) {
    const n = sockets(m);
    const ids = Array.from({ length: n }, (_, i) => `CPU${i + 1}`);
    if (id === undefined) return collection(uri, 'Processors Collection', 'ProcessorCollection', ids.map((x) => `${uri}/${x}`));
    const index = ids.indexOf(id);
    if (index < 0) return undefined;
    const threads = p.cpu.count / n;
    const arm = p.cpu.architecture === 'aarch64';
    return {
      ...odata(uri, '#Processor.v1_7_0.Processor'),
      Id: id,
      Name: 'Processor',
      Socket: `CPU ${index + 1}`,
      ProcessorType: 'CPU',
      ProcessorArchitecture: arm ? 'ARM' : 'x86',
      InstructionSet: arm ? 'ARM-A64' : 'x86-64',
      Manufacturer: cpuVendor(p.cpu.model_name),
      Model: p.cpu.model_name,
      MaxSpeedMHz: p.cpu.frequency_mhz,
      TotalCores: Math.max(1, Math.floor(threads / 2)),
      TotalThreads: threads,
      Status: OK,
    };
  }

  if (kind === 'Memory' && sub === undefined) {
    const { count, mib } = dimms(m);
    const ids = Array.from({ length: count }, (_, i) => `DIMM${i + 1}`);
    if (id === undefined) return collection(uri, 'Memory Collection', 'MemoryCollection', ids.map((x) => `${uri}/${x}`));
    if (!ids.includes(id)) return undefined;
    return {
      ...odata(uri, '#Memory.v1_9_0.Memory'),
      Id: id,
      Name: `Memory ${id}`,
      MemoryType: 'DRAM',
      MemoryDeviceType: 'DDR4',
      CapacityMiB: mib,
      OperatingSpeedMhz: 2933,
      Manufacturer: 'Ingot Simulated',
      DeviceLocator: id,
      Status: OK,
    };
  }

  if (kind === 'SimpleStorage' && sub === undefined) {
    if (id === undefined) return collection(uri, 'Simple Storage Collection', 'SimpleStorageCollection', [`${uri}/1`]);
    if (id !== '1') return undefined;
    return {
      ...odata(uri, '#SimpleStorage.v1_2_0.SimpleStorage'),
      Id: '1',
      Name: 'Simple Storage Controller',
      Description: 'System SATA',
      UefiDevicePath: 'PciRoot(0x0)/Pci(0x1F,0x2)/Sata(0x0,0xFFFF,0x0)',
      Status: OK,
      Devices: p.disks.map((d) => ({ Name: d.name, Manufacturer: d.vendor, Model: d.model, CapacityBytes: d.size_bytes, Status: OK })),
    };
  }

  if (kind === 'Storage') return renderStorage(m, uri, id, sub, subId);

  if (kind === 'EthernetInterfaces' && sub === undefined) {
    if (id === undefined) return collection(uri, 'Ethernet Interface Collection', 'EthernetInterfaceCollection', p.nics.map((n) => `${uri}/${seg(n.name)}`));
    const nic = p.nics.find((n) => n.name === id);
    if (!nic) return undefined;
    return {
      ...odata(uri, '#EthernetInterface.v1_6_0.EthernetInterface'),
      Id: nic.name,
      Name: nic.name,
      Description: `Network interface ${nic.name}`,
      MACAddress: nic.mac,
      PermanentMACAddress: nic.mac,
      SpeedMbps: nic.speed_mbps,
      LinkStatus: 'LinkUp',
      InterfaceEnabled: true,
      FullDuplex: true,
      Status: OK,
    };
  }
  return undefined;
}

/** Storage/1 with its Drives and an empty Volumes collection (the disks are plain JBOD). */
function renderStorage(m: Machine, uri: string, id?: string, sub?: string, subId?: string): Record<string, unknown> | undefined {
  const disks = m.profile.disks;
  const storageUri = `${systemUri(m)}/Storage/1`;
  if (id === undefined) return collection(uri, 'Storage Collection', 'StorageCollection', [storageUri]);
  if (id !== '1') return undefined;
  const driveUri = (i: number) => `${storageUri}/Drives/${i}`;
  if (sub === undefined) {
    return {
      ...odata(uri, '#Storage.v1_8_0.Storage'),
      Id: '1',
      Name: 'Local Storage Controller',
      Description: 'Storage controller',
      Status: { State: 'Enabled', Health: 'OK', HealthRollup: 'OK' },
      StorageControllers: [
        {
          '@odata.id': `${storageUri}#/StorageControllers/0`,
          MemberId: '0',
          Name: 'SATA Controller',
          Status: OK,
          SpeedGbps: 6,
          SupportedControllerProtocols: ['PCIe'],
          SupportedDeviceProtocols: ['SATA'],
          SupportedRAIDTypes: [],
        },
      ],
      Drives: disks.map((_, i) => ref(driveUri(i))),
      'Drives@odata.count': disks.length,
      Volumes: ref(`${storageUri}/Volumes`),
    };
  }
  if (sub === 'Volumes' && subId === undefined) return collection(uri, 'Volume Collection', 'VolumeCollection', []);
  if (sub !== 'Drives' || subId === undefined) return undefined;
  const index = /^\d+$/.test(subId) ? Number(subId) : -1;
  const d = disks[index];
  if (!d) return undefined;
  return {
    ...odata(uri, '#Drive.v1_9_0.Drive'),
    Id: subId,
    Name: d.name,
    Manufacturer: d.vendor,
    Model: d.model,
    SerialNumber: d.serial,
    CapacityBytes: d.size_bytes,
    BlockSizeBytes: 512,
    MediaType: d.rotational ? 'HDD' : 'SSD',
    Protocol: 'SATA',
    ...(d.rotational ? { RotationSpeedRPM: 7200 } : {}),
    Identifiers: d.wwn ? [{ DurableNameFormat: 'NAA', DurableName: d.wwn.replace(/^0x/, '').toUpperCase() }] : [],
    Status: OK,
  };
}
