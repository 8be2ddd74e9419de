/**
 * IPv4/IPv6 addresses and networks for the `in-net` condition, with the inputs netaddr (which the
 * upstream rules use) accepts: `10.0.0.0/8`, `10.1.2.3/8` (host bits allowed), `10.0.0.0/255.0.0.0`,
 * a bare address (a /32 or /128 network), `fd00::/64`, `::ffff:10.0.0.1`.
 */

/** A parsed address: its version and its value as a 32- or 128-bit integer. */
export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

/** A parsed network: first address and prefix length. */
export interface IpNetwork {
  version: 4 | 6;
  base: bigint;
  prefix: number;
}

/** Parses an IPv4 or IPv6 address; null when it is not one. */
export function parseIp(text: string): IpAddress | null {
  const s = text.trim();
  if (s.includes(':')) {
    const v = parseV6(s);
    return v === null ? null : { version: 6, value: v };
  }
  const v = parseV4(s);
  return v === null ? null : { version: 4, value: v };
}

/** Parses a network in CIDR (or address/netmask, or bare address) form; throws with the reason. */
export function parseNetwork(text: string): IpNetwork {
  const s = String(text).trim();
  const slash = s.indexOf('/');
  const addr = parseIp(slash < 0 ? s : s.slice(0, slash));
  if (!addr) throw new Error(`"${s}" is not an IP network (expected e.g. 192.168.0.0/24 or fd00::/64)`);
  const bits = addr.version === 4 ? 32 : 128;
  let prefix = bits;
  if (slash >= 0) {
    const p = s.slice(slash + 1);
    if (/^\d{1,3}$/.test(p)) prefix = Number(p);
    else {
      const mask = addr.version === 4 ? parseV4(p) : null;
      if (mask === null) throw new Error(`"${s}" has an invalid prefix length "${p}"`);
      prefix = maskToPrefix(mask);
      if (prefix < 0) throw new Error(`"${s}" has a non-contiguous netmask "${p}"`);
    }
    if (prefix > bits) throw new Error(`"${s}" has a prefix length above ${bits}`);
  }
  const hostBits = BigInt(bits - prefix);
  const base = (addr.value >> hostBits) << hostBits;
  return { version: addr.version, base, prefix };
}

/** True when `address` lies inside `network` (different IP versions never match). */
export function ipInNetwork(address: IpAddress, network: IpNetwork): boolean {
  if (address.version !== network.version) return false;
  const hostBits = BigInt((network.version === 4 ? 32 : 128) - network.prefix);
  return address.value >> hostBits === network.base >> hostBits;
}

function parseV4(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    v = (v << 8n) | BigInt(Number(p));
  }
  return v;
}

function parseV6(s: string): bigint | null {
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  let tail: bigint[] = [];
  // An embedded IPv4 address in the last 32 bits.
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(s.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [v4 >> 16n, v4 & 0xffffn];
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string): bigint[] | null => {
    if (h === '') return [];
    const groups = h.split(':');
    const out: bigint[] = [];
    for (const g of groups) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(BigInt(parseInt(g, 16)));
    }
    return out;
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !rest) return null;
  const total = head.length + rest.length + tail.length;
  let groups: bigint[];
  if (halves.length === 2) {
    if (total > 7) return null;
    groups = [...head, ...Array<bigint>(8 - total).fill(0n), ...rest, ...tail];
  } else {
    if (total !== 8) return null;
    groups = [...head, ...tail];
  }
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

function maskToPrefix(mask: bigint): number {
  let prefix = 0;
  for (let bit = 31n; bit >= 0n; bit--) {
    if ((mask >> bit) & 1n) prefix++;
    else break;
  }
  const expected = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(32 - prefix);
  return expected === mask ? prefix : -1;
}
