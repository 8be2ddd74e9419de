/**
 * Memory facts. `total` is what the kernel manages (MemTotal of /proc/meminfo, bytes); `physical_mb`
 * is the installed memory in MiB, found by the first rule that answers:
 *
 * 1. the SMBIOS table (/sys/firmware/dmi/tables/DMI): sum of the sizes of the type 17 "Memory Device"
 *    structures, read directly so no tool is needed;
 * 2. `dmidecode -t 17`, when the table file is unreadable but the tool is installed (same data);
 * 3. memory hotplug blocks (/sys/devices/system/memory): block_size_bytes × the number of online
 *    blocks. This counts the RAM the kernel mapped (firmware reservations inside a block included),
 *    so it matches the installed size on VMs and most servers, but it can be lower when firmware keeps
 *    whole blocks.
 *
 * When none answers, physical_mb is null and a problem says why.
 */
import type { AgentSystem } from '../system.js';

/** MemTotal of /proc/meminfo in bytes, or null. */
export function parseMeminfoTotal(text: string): number | null {
  const m = /^MemTotal:\s+(\d+)\s*kB/m.exec(text);
  return m ? Number(m[1]) * 1024 : null;
}

/**
 * Sum (MiB) of the type 17 Memory Device sizes in a raw SMBIOS structure table, or null when the table
 * has no such device with a known size. Size (offset 0x0C, WORD): 0 = empty slot, 0xFFFF = unknown,
 * bit 15 set = unit KiB else MiB, 0x7FFF = see Extended Size (offset 0x1C, DWORD, MiB)
 * (DMTF DSP0134 §7.18).
 */
export function parseSmbiosMemoryMib(table: Uint8Array): number | null {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  let offset = 0;
  let total = 0;
  let found = false;
  while (offset + 4 <= table.length) {
    const type = table[offset] as number;
    const length = table[offset + 1] as number;
    if (length < 4 || offset + length > table.length) break;
    if (type === 17 && length >= 0x0e) {
      const size = view.getUint16(offset + 0x0c, true);
      if (size !== 0 && size !== 0xffff) {
        if (size === 0x7fff && length >= 0x20) total += view.getUint32(offset + 0x1c, true) & 0x7fffffff;
        else if (size & 0x8000) total += (size & 0x7fff) / 1024;
        else total += size;
        found = true;
      }
    }
    if (type === 127) break; // end-of-table
    // Skip the formatted area, then the string set, which ends with two NUL bytes.
    let p = offset + length;
    while (p + 1 < table.length && !(table[p] === 0 && table[p + 1] === 0)) p++;
    offset = p + 2;
  }
  return found ? Math.round(total) : null;
}

/** Sum (MiB) of the `Size:` lines of `dmidecode -t 17`, or null when no device reports a size. */
export function parseDmidecodeMemoryMib(text: string): number | null {
  const units: Record<string, number> = { kB: 1 / 1024, KB: 1 / 1024, MB: 1, GB: 1024, TB: 1024 * 1024 };
  let total = 0;
  let found = false;
  for (const m of text.matchAll(/^\s*Size:\s*(\d+)\s*(kB|KB|MB|GB|TB)\s*$/gm)) {
    total += Number(m[1]) * (units[m[2] as string] as number);
    found = true;
  }
  return found ? Math.round(total) : null;
}

/** Installed memory (MiB) from memory hotplug blocks, or null when sysfs does not have them. */
export async function sysfsMemoryMib(system: AgentSystem): Promise<number | null> {
  const blockSize = parseInt((await system.readText('/sys/devices/system/memory/block_size_bytes'))?.trim() ?? '', 16);
  const entries = await system.list('/sys/devices/system/memory');
  if (!Number.isFinite(blockSize) || blockSize <= 0 || !entries) return null;
  const blocks = entries.filter((e) => /^memory\d+$/.test(e));
  const online = await Promise.all(blocks.map(async (b) => (await system.readText(`/sys/devices/system/memory/${b}/online`))?.trim() === '1'));
  const count = online.filter(Boolean).length;
  return count > 0 ? Math.round((count * blockSize) / (1024 * 1024)) : null;
}

/** Reads total and physical memory; see the module comment for the physical_mb rule. */
export async function readMemory(system: AgentSystem, problems: string[]): Promise<{ total: number; physical_mb: number | null }> {
  const meminfo = await system.readText('/proc/meminfo');
  const total = meminfo === null ? null : parseMeminfoTotal(meminfo);
  if (total === null) problems.push('/proc/meminfo unreadable or without MemTotal: memory total unknown (is /proc mounted?)');

  let physical: number | null = null;
  const table = await system.readBytes('/sys/firmware/dmi/tables/DMI');
  if (table) physical = parseSmbiosMemoryMib(table);
  if (physical === null && (await system.hasTool('dmidecode'))) {
    const r = await system.run('dmidecode', ['-t', '17']);
    if (r.ok) physical = parseDmidecodeMemoryMib(r.stdout);
  }
  if (physical === null) physical = await sysfsMemoryMib(system);
  if (physical === null) {
    problems.push('installed memory unknown: no SMBIOS memory devices, no dmidecode, no /sys/devices/system/memory blocks (physical_mb is null)');
  }
  return { total: total ?? 0, physical_mb: physical };
}
