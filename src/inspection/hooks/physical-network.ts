import { BlockList, isIP } from 'node:net';
import { fail } from '../../shared/errors.js';
import type { CheckedInterface } from './validate-interfaces.js';
import { allInterfaces } from './plugin-data.js';
import type { HookResult, InspectionHook } from './types.js';

/** One `physical_network_cidr_map` entry. */
export interface CidrMapping {
  cidr: string;
  physnet: string;
  match(ip: string): boolean;
}

/**
 * Parses `physical_network_cidr_map` entries (`"10.10.10.0/24:physnet_a"`, `"2001:db8::/64:physnet_b"`; the
 * physnet follows the last colon). @throws IngotError ConfigInvalid naming the bad entry.
 */
export function parseCidrMap(entries: readonly string[]): CidrMapping[] {
  return entries.map((entry, i) => {
    const at = entry.lastIndexOf(':');
    const cidr = entry.slice(0, at);
    const physnet = entry.slice(at + 1);
    const m = /^(.+)\/(\d{1,3})$/.exec(cidr);
    const family = m ? isIP(m[1]!) : 0;
    const prefix = m ? Number(m[2]) : -1;
    if (at < 0 || !physnet || !m || family === 0 || prefix > (family === 4 ? 32 : 128)) {
      throw fail('cidrMapEntryInvalid', { index: i, entry: JSON.stringify(entry) });
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const list = new BlockList();
    list.addSubnet(m[1]!, prefix, type);
    return { cidr, physnet, match: (ip: string) => isIP(ip) === family && list.check(ip, type) };
  });
}

/** The physical network of the first mapping that contains the interface's IPv4, then IPv6 address. */
export function physicalNetworkFor(iface: Pick<CheckedInterface, 'ipv4_address' | 'ipv6_address'>, map: readonly CidrMapping[]): string | null {
  for (const ip of [iface.ipv4_address, iface.ipv6_address]) {
    if (!ip || isIP(ip) === 0) continue;
    const hit = map.find((m) => m.match(ip));
    if (hit) return hit.physnet;
  }
  return null;
}

/**
 * `physical-network`: sets each port's `physical_network` from the CIDR its NIC's address falls in
 * (`physical_network_cidr_map`), as Ironic's PhysicalNetworkHook. Ports whose NIC has no mapped address
 * keep their value.
 */
export const physicalNetworkHook: InspectionHook = {
  name: 'physical-network',
  dependencies: ['validate-interfaces'],
  run(ctx) {
    const map = parseCidrMap(ctx.config.physical_network_cidr_map);
    const all = allInterfaces(ctx);
    const byAddress = new Map(ctx.ports.map((p) => [p.address, p]));
    const result: Required<Pick<HookResult, 'updatePorts'>> = { updatePorts: [] };
    for (const iface of Object.values(all)) {
      const port = byAddress.get(iface.mac_address);
      if (!port) continue;
      const physnet = physicalNetworkFor(iface, map);
      if (physnet !== null && physnet !== port.physical_network) result.updatePorts.push({ address: port.address, fields: { physical_network: physnet } });
    }
    return result;
  },
};
