import { describe, it, expect } from 'vitest';
import { formatIpv6, parseLldpTlvs } from './lldp.js';

// TLVs from Ironic's ParseLLDPTestCase.test_all_valid_data (a real switch's LLDPDU, split per TLV).
const ALL_VALID: [number, string][] = [
  [1, '04112233aabbcc'],
  [2, '07373334'],
  [3, '003c'],
  [4, '686f737430322e6c61622e656e6720706f7274203320' + '28426f6e6429'],
  [5, '737730312d646973742d31622d623132'],
  [6, '4e6574776f726b732c20496e632e20353530302c2076657273696f' + '6e203132204275696c6420646174653a20323031342d30332d31332030' + '383a33383a33302055544320'],
  [7, '00140014'],
  [8, '0501c000020f020000000000'],
  [8, '110220010db885a3000000008a2e03707334020000000000'],
  [8, '0706aa11bb22cc3302000003e900'],
  [127, '00120f01036c110010'],
  [127, '00120f030300000002'],
  [127, '00120f0405ea'],
  [127, '0080c2010066'],
  [127, '0080c20206000a'],
  [127, '0080c202060014'],
  [127, '0080c204080026424203000000'],
  [127, '0080c203006507766c616e313031'],
  [127, '0080c203006607766c616e313032'],
  [127, '0080c203006807766c616e313034'],
  [127, '0080c2060058'],
  [0, ''],
];

describe('parseLldpTlvs', () => {
  it('decodes the basic, 802.1 and 802.3 TLVs as Ironic does', () => {
    const { values, warnings } = parseLldpTlvs(ALL_VALID);
    expect(warnings).toEqual([]);
    expect(values).toEqual({
      switch_chassis_id: '11:22:33:aa:bb:cc',
      switch_port_id: '734',
      switch_port_description: 'host02.lab.eng port 3 (Bond)',
      switch_system_name: 'sw01-dist-1b-b12',
      switch_system_description: 'Networks, Inc. 5500, version 12 Build date: 2014-03-13 08:38:30 UTC ',
      switch_capabilities_support: ['Bridge', 'Router'],
      switch_capabilities_enabled: ['Bridge', 'Router'],
      switch_mgmt_addresses: ['192.0.2.15', '2001:db8:85a3::8a2e:370:7334', 'aa:11:bb:22:cc:33'],
      switch_port_autonegotiation_enabled: true,
      switch_port_autonegotiation_support: true,
      switch_port_physical_capabilities: ['1000BASE-T fdx', '100BASE-TX fdx', '100BASE-TX hdx', '10BASE-T fdx', '10BASE-T hdx', 'Asym and Sym PAUSE fdx'],
      switch_port_mau_type: '100BASE-TX full duplex',
      switch_port_link_aggregation_enabled: true,
      switch_port_link_aggregation_support: true,
      switch_port_link_aggregation_id: 2,
      switch_port_mtu: 1514,
      switch_port_untagged_vlan_id: 102,
      switch_port_protocol_vlan_enabled: true,
      switch_port_protocol_vlan_support: true,
      switch_port_protocol_vlan_ids: [10, 20],
      switch_protocol_identities: ['0026424203000000'],
      switch_port_vlans: [{ name: 'vlan101', id: 101 }, { name: 'vlan102', id: 102 }, { name: 'vlan104', id: 104 }],
      switch_port_management_vlan_id: 88,
    });
  });

  it('decodes chassis IDs given as an IP address or a local name', () => {
    expect(parseLldpTlvs([[1, '0501c000020f']]).values).toEqual({ switch_chassis_id: '192.0.2.15' });
    expect(parseLldpTlvs([[1, '0773773031']]).values).toEqual({ switch_chassis_id: 'sw01' });
  });

  it('keeps the first of duplicate TLVs', () => {
    const { values } = parseLldpTlvs([[1, '04112233aabbcc'], [1, '04332211ddeeff'], [2, '07373334'], [2, '07373435']]);
    expect(values).toEqual({ switch_chassis_id: '11:22:33:aa:bb:cc', switch_port_id: '734' });
  });

  it('ignores unknown TLV types and warns about unknown OUIs', () => {
    expect(parseLldpTlvs([[10, '04112233aabbcc'], [12, '07373334'], [128, '00120f080300010000']])).toEqual({ values: {}, warnings: [] });
    const { values, warnings } = parseLldpTlvs([[127, '00906901425030323134323530393236'], [127, '23ac0074657374'], [127, '00120e010300010000']]);
    expect(values).toEqual({});
    expect(warnings).toHaveLength(3);
  });

  it('keeps empty strings and warns about truncated values', () => {
    const { values, warnings } = parseLldpTlvs([[1, '04'], [4, ''], [5, ''], [6, ''], [127, '0080c203006507']]);
    expect(values).toEqual({ switch_port_description: '', switch_system_description: '', switch_system_name: '' });
    expect(warnings).toHaveLength(2);
  });

  it('warns about truncated integers, bad lengths, bad hex and bad UTF-8 and goes on', () => {
    const { values, warnings } = parseLldpTlvs([
      [127, '00120f04'], // MTU without a value
      [127, '00120f01036c11'], // MAC/PHY too short
      [7, '001400'], // capabilities of 3 octets
      [5, 'zz'],
      [4, 'ff'],
      [5, '7377'],
    ]);
    expect(values).toEqual({ switch_system_name: 'sw' });
    expect(warnings).toHaveLength(5);
  });

  it('formats IPv6 addresses in compressed form', () => {
    const bytes = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
    expect(formatIpv6(bytes('20010db885a3000000008a2e03707334'))).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(formatIpv6(bytes('00000000000000000000000000000001'))).toBe('::1');
    expect(formatIpv6(bytes('fe800000000000000000000000000000'))).toBe('fe80::');
    expect(formatIpv6(bytes('20010db8000100000001000000000001'))).toBe('2001:db8:1:0:1::1');
  });
});
