import { describe, it, expect } from 'vitest';
import { linkFromLldp, localLinkConnectionHook } from '../../../src/inspection/hooks/local-link-connection.js';
import { MAX_LLDP_INTERFACES, parseLldpHook } from '../../../src/inspection/hooks/parse-lldp.js';
import { parseCidrMap, physicalNetworkHook } from '../../../src/inspection/hooks/physical-network.js';
import { validateInspectionPayload } from '../../../src/inspection/validate.js';
import { IngotError } from '../../../src/shared/errors.js';
import { simulatedProfile } from '../../../src/bmc/profiles.js';
import { hookContext, payloadFromProfile, portRecord, withInterfaces } from '../processing-fixtures.js';

const profile = simulatedProfile(2);
const macs = profile.nics.map((n) => n.mac);
// eth0: a Juniper-style LLDPDU (MAC chassis, ifName port, system name, VLAN names); from Ironic's tests.
const ETH0: [number, string][] = [[1, '04112233aabbcc'], [2, '0565746830'], [3, '003c'], [5, '737730312d646973742d31622d623132'], [127, '0080c203006507766c616e313031']];
// eth1 (in plugin data lldp_raw, as IPA's collector sends it): a local chassis name and a local port.
const ETH1: [number, string][] = [[1, '0773773031'], [2, '07373334'], [3, '003c']];

function payload() {
  const body = payloadFromProfile(profile, 2);
  body.inventory.interfaces[0]!.lldp = ETH0;
  body.lldp_raw = { eth1: ETH1 };
  return validateInspectionPayload(body);
}

describe('parse-lldp', () => {
  it('parses per interface from plugin data lldp_raw and the interface lldp field', () => {
    const r = parseLldpHook.run!(hookContext({ payload: payload() }));
    expect(r.pluginData!.parsed_lldp).toEqual({
      eth0: { switch_chassis_id: '11:22:33:aa:bb:cc', switch_port_id: 'eth0', switch_system_name: 'sw01-dist-1b-b12', switch_port_vlans: [{ name: 'vlan101', id: 101 }] },
      eth1: { switch_chassis_id: 'sw01', switch_port_id: '734' },
    });
  });

  it('prefers lldp_raw over the interface field, like Ironic', () => {
    const body = payload();
    (body.lldp_raw as Record<string, unknown>).eth0 = [[1, '04112233aabbee']];
    const parsed = parseLldpHook.run!(hookContext({ payload: body })).pluginData!.parsed_lldp as Record<string, Record<string, unknown>>;
    expect(parsed.eth0).toEqual({ switch_chassis_id: '11:22:33:aa:bb:ee' });
  });

  it('records nothing without LLDP data and bounds the interfaces parsed', () => {
    const body = validateInspectionPayload(payloadFromProfile(profile, 2));
    expect(parseLldpHook.run!(hookContext({ payload: body })).pluginData).toBeUndefined();
    body.inventory.interfaces = Array.from({ length: MAX_LLDP_INTERFACES + 1 }, (_, i) => ({
      ...body.inventory.interfaces[0]!, name: `eth${i}`, mac_address: `52:54:00:00:01:${i.toString(16).padStart(2, '0')}`, lldp: ETH1,
    }));
    const r = parseLldpHook.run!(hookContext({ payload: body }));
    expect(Object.keys(r.pluginData!.parsed_lldp as object)).toHaveLength(MAX_LLDP_INTERFACES);
    expect(r.notes![0]!.message).toMatch(/exceed the 64/);
  });
});

describe('local-link-connection', () => {
  it('derives switch_id (MAC chassis only), port_id and switch_info', () => {
    expect(linkFromLldp(ETH0)).toEqual({ link: { switch_id: '11:22:33:aa:bb:cc', port_id: 'eth0', switch_info: 'sw01-dist-1b-b12' }, problem: null });
    expect(linkFromLldp(ETH1)).toEqual({ link: { port_id: '734' }, problem: null });
    expect(linkFromLldp([[2, '07373334'], [1, 'zz']]).problem).toMatch(/not hexadecimal/);
    expect(linkFromLldp([[2, '06aabb']]).problem).toMatch(/subtype 6 is not known/);
  });

  it('updates the ports of the NICs, keeping keys the operator set', () => {
    const existing = [portRecord(macs[0]!), portRecord(macs[1]!, { local_link_connection: { port_id: 'Gi1/0/7' } }), portRecord(macs[2]!)];
    const r = localLinkConnectionHook.run!(withInterfaces(hookContext({ payload: payload(), ports: existing })));
    expect(r.updatePorts).toEqual([
      { address: macs[0], fields: { local_link_connection: { switch_id: '11:22:33:aa:bb:cc', port_id: 'eth0', switch_info: 'sw01-dist-1b-b12' } } },
    ]);
  });

  it('skips NICs without a port', () => {
    expect(localLinkConnectionHook.run!(withInterfaces(hookContext({ payload: payload() }))).updatePorts).toEqual([]);
  });
});

describe('physical-network', () => {
  const map = ['10.1.0.0/16:physnet_a', '2001:db8::/64:physnet_b'];

  it('maps a NIC address to its physical network', () => {
    const body = payload();
    body.inventory.interfaces[1]!.ipv6_address = '2001:db8::7';
    body.inventory.interfaces[2]!.ipv4_address = '192.168.0.2';
    const existing = macs.map((m) => portRecord(m));
    existing[1] = { ...existing[1]!, physical_network: 'physnet_b' };
    const r = physicalNetworkHook.run!(withInterfaces(hookContext({ payload: body, ports: existing, config: { physical_network_cidr_map: map } })));
    expect(r.updatePorts).toEqual([{ address: macs[0], fields: { physical_network: 'physnet_a' } }]);
  });

  it('rejects a malformed map entry naming it', () => {
    expect(() => parseCidrMap(['10.0.0.0/8:a', '10.0.0.0:b'])).toThrow(IngotError);
    expect(() => parseCidrMap(['10.0.0.0/8:a', '10.0.0.0:b'])).toThrow('inspector.physical_network_cidr_map[1]: "10.0.0.0:b" is not "<CIDR>:<physical network>"');
    expect(() => parseCidrMap(['10.0.0.0/33:a'])).toThrow(/is not "<CIDR>/);
    expect(parseCidrMap(['2001:db8::/64:physnet_b'])[0]!.physnet).toBe('physnet_b');
  });
});
