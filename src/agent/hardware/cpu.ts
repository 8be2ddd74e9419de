/** CPU facts from /proc/cpuinfo (and cpufreq for the frequency). */
import type { InventoryCpu } from '../../protocol/agent/inventory.js';
import type { AgentSystem } from '../system.js';

/** What /proc/cpuinfo tells, without the architecture. */
export type CpuinfoFacts = Omit<InventoryCpu, 'architecture'>;

/**
 * Parses /proc/cpuinfo: `count` is the number of `processor` stanzas (logical CPUs, as IPA counts
 * them), `socket_count` the number of distinct `physical id`s (null when the kernel does not report
 * them, e.g. on most aarch64 machines), `flags` from `flags` (x86) or `Features` (arm), `frequency`
 * the first `cpu MHz` as text.
 */
export function parseCpuinfo(text: string): CpuinfoFacts {
  let count = 0;
  let model: string | null = null;
  let mhz: string | null = null;
  let flags: string[] = [];
  const sockets = new Set<string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (key === 'processor') count++;
    else if (key === 'model name' && model === null) model = value;
    else if (key === 'cpu MHz' && mhz === null) mhz = value;
    else if ((key === 'flags' || key === 'Features') && flags.length === 0) flags = value.split(/\s+/).filter(Boolean);
    else if (key === 'physical id') sockets.add(value);
  }
  return { model_name: model, frequency: mhz, count, flags, socket_count: sockets.size > 0 ? sockets.size : null };
}

/** Reads the CPU facts; an unreadable /proc/cpuinfo gives count 0 and a problem. */
export async function readCpu(system: AgentSystem, problems: string[]): Promise<InventoryCpu> {
  const architecture = system.machine();
  const text = await system.readText('/proc/cpuinfo');
  if (text === null) {
    problems.push('/proc/cpuinfo unreadable: CPU model, count and flags unknown (is /proc mounted?)');
    return { model_name: null, frequency: null, count: 0, architecture, flags: [], socket_count: null };
  }
  const facts = parseCpuinfo(text);
  // NOTE: `cpu MHz` is the current clock of CPU 0 and moves with frequency scaling; IPA prefers the
  // maximum (lscpu "CPU max MHz"), which cpufreq gives in kHz when the driver exposes it.
  const maxKhz = Number((await system.readText('/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq'))?.trim());
  if (Number.isFinite(maxKhz) && maxKhz > 0) facts.frequency = String(maxKhz / 1000);
  if (facts.count === 0) problems.push('/proc/cpuinfo lists no processors: CPU count unknown');
  return { ...facts, architecture };
}
