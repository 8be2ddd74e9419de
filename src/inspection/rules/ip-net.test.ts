/** IP networks of the `in-net` condition, in the forms netaddr accepts. */
import { describe, expect, it } from 'vitest';
import { ipInNetwork, parseIp, parseNetwork } from './ip-net.js';

describe('IP networks', () => {
  it('tests membership for IPv4 and IPv6 forms netaddr accepts', () => {
    const addr = parseIp('192.168.122.10')!;
    expect(ipInNetwork(addr, parseNetwork('192.168.122.0/24'))).toBe(true);
    expect(ipInNetwork(addr, parseNetwork('192.168.122.77/24'))).toBe(true);
    expect(ipInNetwork(addr, parseNetwork('192.168.0.0/255.255.255.0'))).toBe(false);
    expect(ipInNetwork(addr, parseNetwork('192.168.122.10'))).toBe(true);
    expect(ipInNetwork(parseIp('fd00::1')!, parseNetwork('fd00::/64'))).toBe(true);
    expect(ipInNetwork(parseIp('::ffff:10.1.2.3')!, parseNetwork('::ffff:10.0.0.0/104'))).toBe(true);
    expect(ipInNetwork(addr, parseNetwork('fd00::/8'))).toBe(false);
  });

  it('refuses bad networks and addresses', () => {
    expect(() => parseNetwork('192.168.1.0/33')).toThrow(/prefix length/);
    expect(() => parseNetwork('not-a-net')).toThrow(/not an IP network/);
    expect(() => parseNetwork('10.0.0.0/255.0.255.0')).toThrow(/non-contiguous/);
    expect(parseIp('999.1.1.1')).toBeNull();
    expect(parseIp('1:2:3:4:5:6:7:8:9')).toBeNull();
  });
});
