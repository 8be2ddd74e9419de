/** Network interfaces from /sys/class/net and the kernel's address list. */
import type { InventoryInterface } from '../../protocol/agent/inventory.js';
import type { AgentSystem, NetAddress } from '../system.js';

const NET = '/sys/class/net';

/** First global address of a family; IPv6 link-local (fe80::/10) only when there is nothing else. */
export function pickAddress(addresses: NetAddress[], family: 'IPv4' | 'IPv6'): string | null {
  const of = addresses.filter((a) => a.family === family && !a.internal);
  const global = of.find((a) => !(family === 'IPv6' && /^fe[89ab]/i.test(a.address)));
  return (global ?? of[0])?.address ?? null;
}

/**
 * Reads the interfaces. Like IPA, only interfaces backed by a device (`/sys/class/net/<if>/device`
 * exists) are listed: that drops lo and virtual links (bridges, bonds, ifb, veth, tun) whose MACs are
 * made up at boot and would become bogus ports.
 */
export async function readInterfaces(system: AgentSystem, problems: string[]): Promise<InventoryInterface[]> {
  const names = await system.list(NET);
  if (names === null) {
    problems.push(`${NET} unreadable: network interfaces unknown (is /sys mounted?)`);
    return [];
  }
  const addresses = system.networkAddresses();
  const out: InventoryInterface[] = [];
  for (const name of names) {
    if (name === 'lo' || !(await system.exists(`${NET}/${name}/device`))) continue;
    const read = async (f: string) => (await system.readText(`${NET}/${name}/${f}`))?.trim() ?? null;
    const mac = (await read('address'))?.toLowerCase() ?? null;
    if (!mac) {
      problems.push(`${NET}/${name}/address unreadable: interface ${name} left out`);
      continue;
    }
    // Reading carrier or speed fails (EINVAL) while the link is down; that means no carrier.
    const speed = Number(await read('speed'));
    const own = addresses[name] ?? [];
    out.push({
      name,
      mac_address: mac,
      ipv4_address: pickAddress(own, 'IPv4'),
      ipv6_address: pickAddress(own, 'IPv6'),
      has_carrier: (await read('carrier')) === '1',
      lldp: null,
      vendor: await read('device/vendor'),
      product: await read('device/device'),
      biosdevname: null,
      client_id: null,
      speed_mbps: Number.isFinite(speed) && speed > 0 ? speed : null,
    });
  }
  return out;
}
