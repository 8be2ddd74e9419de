/**
 * From fetched Redfish resources to inspection results, without I/O: node properties (cpus, cpu_arch,
 * memory_mb, local_gb, the boot_mode capability) and the ports to create. Rules as Ironic's
 * `redfish/inspect.py`: local_gb is the smallest disk of at least 4 GiB (the one the agent would pick as
 * root device by default), in GiB minus one, 0 when there is none.
 */
import type { Json, JsonObject } from '../../domain/node.js';
import type { DiscoveredPort } from '../interfaces/base.js';
import { ETHERNET_MAC, parseMac } from '../../shared/mac.js';
import type { RedfishResource } from './client.js';

/** The resources inspection reads; collections already resolved to their members. */
export interface RedfishInventory {
  system: RedfishResource;
  processors: RedfishResource[];
  /** DIMMs; only needed when MemorySummary has no total. */
  memory: RedfishResource[];
  /** Storage members with their drives and volumes. */
  storage: { drives: RedfishResource[]; volumes: RedfishResource[] }[];
  simpleStorage: RedfishResource[];
  ethernetInterfaces: RedfishResource[];
}

export interface InspectionResult {
  /** The node's properties after inspection (other keys kept). */
  properties: JsonObject;
  ports: DiscoveredPort[];
  /** Properties that could not be found. */
  missing: string[];
}

const GIB = 1024 ** 3;
const MIN_DISK_BYTES = 4 * GIB;

/** cpu_arch by Redfish InstructionSet. */
const BY_INSTRUCTION_SET: Readonly<Record<string, string>> = {
  x86: 'x86_64', 'x86-64': 'x86_64', 'IA-64': 'ia64', 'ARM-A32': 'arm', 'ARM-A64': 'aarch64', 'MIPS32': 'mips', 'MIPS64': 'mips64',
  PowerISA: 'ppc64le', 'RV32': 'riscv32', 'RV64': 'riscv64',
};
/** cpu_arch by Redfish ProcessorArchitecture when there is no InstructionSet (Ironic's CPU_ARCH_MAP). */
const BY_ARCHITECTURE: Readonly<Record<string, string>> = { x86: 'x86_64', 'IA-64': 'ia64', ARM: 'arm', MIPS: 'mips', Power: 'ppc64le', RISCV: 'riscv64', OEM: 'oem' };

function isRecord(v: unknown): v is RedfishResource {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

function sub(r: RedfishResource, key: string): RedfishResource {
  return isRecord(r[key]) ? r[key] : {};
}

/** Enabled, or no Status at all (many BMCs leave it out). */
function enabled(r: RedfishResource): boolean {
  const state = sub(r, 'Status')['State'];
  return state === undefined || state === null || state === 'Enabled';
}

function isCpu(p: RedfishResource): boolean {
  return p['ProcessorType'] === undefined || p['ProcessorType'] === null || p['ProcessorType'] === 'CPU';
}

/** Logical CPUs: the summary's LogicalProcessorCount, else threads, cores or sockets of the processors. */
export function cpuCount(system: RedfishResource, processors: RedfishResource[]): number | null {
  const summary = sub(system, 'ProcessorSummary');
  const logical = num(summary['LogicalProcessorCount']);
  if (logical) return logical;
  const cpus = processors.filter(isCpu);
  const sum = (key: string) => cpus.reduce((acc, p) => acc + (num(p[key]) ?? 0), 0);
  return sum('TotalThreads') || sum('TotalCores') || num(summary['Count']) || cpus.length || null;
}

export function cpuArch(processors: RedfishResource[]): string | null {
  for (const p of processors.filter(isCpu)) {
    const set = p['InstructionSet'];
    if (typeof set === 'string' && BY_INSTRUCTION_SET[set]) return BY_INSTRUCTION_SET[set];
    const arch = p['ProcessorArchitecture'];
    if (typeof arch === 'string' && BY_ARCHITECTURE[arch]) return BY_ARCHITECTURE[arch];
  }
  return null;
}

export function memoryMb(system: RedfishResource, memory: RedfishResource[]): number | null {
  const gib = num(sub(system, 'MemorySummary')['TotalSystemMemoryGiB']);
  if (gib) return Math.round(gib * 1024);
  const mib = memory.filter(enabled).reduce((acc, d) => acc + (num(d['CapacityMiB']) ?? 0), 0);
  return mib > 0 ? mib : null;
}

function smallestUsable(sizes: number[]): number {
  const usable = sizes.filter((s) => s >= MIN_DISK_BYTES).sort((a, b) => a - b);
  return usable[0] ?? 0;
}

/** local_gb as Ironic computes it: the smaller of the SimpleStorage and Storage picks, in GiB minus one. */
export function localGb(inv: Pick<RedfishInventory, 'storage' | 'simpleStorage'>): number {
  const simple = smallestUsable(inv.simpleStorage.flatMap((s) => (Array.isArray(s['Devices']) ? s['Devices'] : []).filter(isRecord).filter(enabled).map((d) => num(d['CapacityBytes']) ?? 0)));
  const volumes = smallestUsable(inv.storage.flatMap((s) => s.volumes.map((v) => num(v['CapacityBytes']) ?? 0)));
  const storage = volumes || smallestUsable(inv.storage.flatMap((s) => s.drives.filter(enabled).map((d) => num(d['CapacityBytes']) ?? 0)));
  const bytes = simple && storage ? Math.min(simple, storage) : Math.max(simple, storage);
  return Math.max(0, Math.floor(bytes / GIB - 1));
}

/** The boot mode the system reports (`uefi`/`bios`), or null. */
export function bootModeOf(system: RedfishResource): 'uefi' | 'bios' | null {
  const mode = sub(system, 'Boot')['BootSourceOverrideMode'];
  return mode === 'UEFI' ? 'uefi' : mode === 'Legacy' ? 'bios' : null;
}

/** `capabilities` with boot_mode set unless it is there already (as Ironic; string `k:v,…` or object form kept). */
export function withBootModeCapability(capabilities: Json | undefined, mode: string): Json {
  if (isRecord(capabilities)) {
    return 'boot_mode' in capabilities ? capabilities : { ...(capabilities as JsonObject), boot_mode: mode };
  }
  const text = typeof capabilities === 'string' ? capabilities.trim() : '';
  const pairs = text ? text.split(',').map((p) => p.trim()).filter(Boolean) : [];
  if (pairs.some((p) => p.split(':')[0] === 'boot_mode')) return text;
  return [...pairs, `boot_mode:${mode}`].join(',');
}

/** NICs with a MAC, enabled ones only; the first is the PXE one. */
export function portsOf(nics: RedfishResource[]): DiscoveredPort[] {
  const seen = new Set<string>();
  const ports: DiscoveredPort[] = [];
  for (const nic of nics) {
    if (!enabled(nic)) continue;
    const raw = nic['MACAddress'] ?? nic['PermanentMACAddress'];
    if (typeof raw !== 'string') continue;
    const mac = parseMac(raw.trim(), ETHERNET_MAC);
    if (mac === null || mac === '00:00:00:00:00:00' || seen.has(mac)) continue;
    seen.add(mac);
    ports.push({ address: mac, pxe_enabled: ports.length === 0 });
  }
  return ports;
}

/** Maps the inventory onto the node's current properties. */
export function mapInspection(inv: RedfishInventory, current: JsonObject): InspectionResult {
  const properties: JsonObject = { ...current };
  const missing: string[] = [];
  const cpus = cpuCount(inv.system, inv.processors);
  if (cpus) properties['cpus'] = cpus;
  const arch = cpuArch(inv.processors);
  if (arch) properties['cpu_arch'] = arch;
  const mem = memoryMb(inv.system, inv.memory);
  if (mem) properties['memory_mb'] = mem;
  properties['local_gb'] = localGb(inv);
  const mode = bootModeOf(inv.system);
  if (mode) properties['capabilities'] = withBootModeCapability(current['capabilities'], mode);
  for (const key of ['cpus', 'cpu_arch', 'memory_mb', 'local_gb']) if (properties[key] === undefined) missing.push(key);
  return { properties, ports: portsOf(inv.ethernetInterfaces), missing };
}
