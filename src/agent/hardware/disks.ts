/** Disks from `lsblk -J -b` plus /dev/disk/by-path. */
import type { InventoryDisk } from '../../protocol/agent/inventory.js';
import type { AgentSystem } from '../system.js';

/** The lsblk columns the agent asks for. */
export const LSBLK_COLUMNS = 'NAME,MODEL,SIZE,ROTA,WWN,SERIAL,VENDOR,HCTL,TYPE,UUID';

/** Device names that are not disks of the machine even when lsblk says TYPE disk. */
const SKIP = /^(ram|loop|zram|nbd)\d*/;

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
}

/** lsblk prints sizes and flags as numbers/booleans (util-linux ≥ 2.33) or as strings (older). */
function flag(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

/**
 * Parses `lsblk -J -b -o NAME,MODEL,SIZE,ROTA,WWN,SERIAL,VENDOR,HCTL,TYPE,UUID` output into disks:
 * only TYPE disk, skipping RAM, loop, zram and nbd devices; names as /dev/<name>; by_path null
 * (filled from /dev/disk/by-path by the caller). Throws on text that is not lsblk JSON.
 */
export function parseLsblk(json: string): InventoryDisk[] {
  const doc = JSON.parse(json) as { blockdevices?: Record<string, unknown>[] };
  if (!Array.isArray(doc.blockdevices)) throw new Error('lsblk output has no "blockdevices" list');
  const disks: InventoryDisk[] = [];
  for (const d of doc.blockdevices) {
    const name = text(d.name);
    if (!name || text(d.type) !== 'disk' || SKIP.test(name)) continue;
    const wwn = text(d.wwn);
    disks.push({
      name: `/dev/${name}`,
      model: text(d.model),
      size: Number(d.size ?? 0),
      rotational: flag(d.rota),
      wwn,
      serial: text(d.serial),
      vendor: text(d.vendor),
      // NOTE: lsblk's WWN is udev's ID_WWN_WITH_EXTENSION when the disk has one, so the vendor
      // extension is not separable here; IPA reads both from udev. Reported as lsblk gives it.
      wwn_with_extension: wwn,
      wwn_vendor_extension: null,
      hctl: text(d.hctl),
      by_path: null,
      uuid: text(d.uuid),
    });
  }
  return disks;
}

/** /dev/<name> -> /dev/disk/by-path/<link> for whole-disk links. */
export async function readByPath(system: AgentSystem): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const dir = '/dev/disk/by-path';
  for (const link of (await system.list(dir)) ?? []) {
    if (/-part\d+$/.test(link)) continue;
    const target = await system.readLink(`${dir}/${link}`);
    if (!target) continue;
    const dev = `/dev/${target.split('/').pop()}`;
    // Several links may name one disk (e.g. pci-… and pci-…-ata-1); keep the shortest, like udev's first.
    const prev = out.get(dev);
    const full = `${dir}/${link}`;
    if (!prev || full.length < prev.length) out.set(dev, full);
  }
  return out;
}

/** Reads the disks; a missing or failing lsblk gives an empty list and a problem. */
export async function readDisks(system: AgentSystem, problems: string[]): Promise<InventoryDisk[]> {
  const r = await system.run('lsblk', ['-J', '-b', '-d', '-o', LSBLK_COLUMNS]);
  if (r.missing) {
    problems.push('lsblk not found: disks unknown (install util-linux)');
    return [];
  }
  if (!r.ok) {
    problems.push(`lsblk failed: disks unknown (${r.error})`);
    return [];
  }
  let disks: InventoryDisk[];
  try {
    disks = parseLsblk(r.stdout);
  } catch (err) {
    problems.push(`lsblk output unreadable: disks unknown (${(err as Error).message})`);
    return [];
  }
  const byPath = await readByPath(system);
  for (const d of disks) d.by_path = byPath.get(d.name) ?? null;
  return disks;
}
