/**
 * LLDP TLV decoding: the raw `[type, hex value]` pairs the agent reports per interface, turned into the
 * name/value pairs of Ironic's `parse-lldp` hook (`ironic/drivers/modules/inspector/lldp_parsers.py`,
 * `lldp_tlvs.py`): the 802.1AB basic management set plus the 802.1Q (OUI 00-80-C2) and 802.3
 * (OUI 00-12-0F) organisationally specific TLVs. Names, value shapes and the "first TLV wins" rule are
 * Ironic's, so `plugin_data.parsed_lldp` reads the same for rules and clients. A TLV that cannot be
 * decoded is skipped with a warning; the rest of the LLDPDU still counts.
 */
import type { Json } from '../domain/node.js';

/** TLV types (802.1AB-2016 §8.4). */
export const LLDP_TLV = {
  END: 0, CHASSIS_ID: 1, PORT_ID: 2, TTL: 3, PORT_DESCRIPTION: 4, SYSTEM_NAME: 5, SYSTEM_DESCRIPTION: 6,
  SYSTEM_CAPABILITIES: 7, MANAGEMENT_ADDRESS: 8, ORG_SPECIFIC: 127,
} as const;

const OUI_8021 = '0080c2';
const OUI_8023 = '00120f';
/** 802.1AB: a TLV information string is at most 511 octets. */
const MAX_VALUE_OCTETS = 511;

/** RFC 4836 ifMauTypeList, by index (as Ironic's OPER_MAU_TYPES). */
const MAU_TYPES = [
  'Unknown', 'AUI', '10BASE-5', 'FOIRL', '10BASE-2', '10BASE-T duplex mode unknown', '10BASE-FP', '10BASE-FB',
  '10BASE-FL duplex mode unknown', '10BROAD36', '10BASE-T half duplex', '10BASE-T full duplex', '10BASE-FL half duplex',
  '10BASE-FL full duplex', '100 BASE-T4', '100BASE-TX half duplex', '100BASE-TX full duplex', '100BASE-FX half duplex',
  '100BASE-FX full duplex', '100BASE-T2 half duplex', '100BASE-T2 full duplex', '1000BASE-X half duplex',
  '1000BASE-X full duplex', '1000BASE-LX half duplex', '1000BASE-LX full duplex', '1000BASE-SX half duplex',
  '1000BASE-SX full duplex', '1000BASE-CX half duplex', '1000BASE-CX full duplex', '1000BASE-T half duplex',
  '1000BASE-T full duplex', '10GBASE-X', '10GBASE-LX4', '10GBASE-R', '10GBASE-ER', '10GBASE-LR', '10GBASE-SR',
  '10GBASE-W', '10GBASE-EW', '10GBASE-LW', '10GBASE-SW', '10GBASE-CX4', '2BASE-TL', '10PASS-TS', '100BASE-BX10D',
  '100BASE-BX10U', '100BASE-LX10', '1000BASE-BX10D', '1000BASE-BX10U', '1000BASE-LX10', '1000BASE-PX10D',
  '1000BASE-PX10U', '1000BASE-PX20D', '1000BASE-PX20U',
];

/** System capability bits, low to high after the reserved bit 0 ... as Ironic lists them. */
const CAPABILITIES: [number, string][] = [
  [1, 'Repeater'], [2, 'Bridge'], [3, 'WLAN'], [4, 'Router'], [5, 'Telephone'], [6, 'DOCSIS cable device'],
  [7, 'Station only'], [8, 'C-Vlan'], [9, 'S-Vlan'], [10, 'TPMR'],
];

/** IANAifMauAutoNegCapBits (RFC 4836), bit number in the 16-bit field counted from the MSB. */
const PMD_CAPABILITIES: [number, string][] = [
  [1, '10BASE-T hdx'], [2, '10BASE-T fdx'], [3, '10BASE-T4'], [4, '100BASE-TX hdx'], [5, '100BASE-TX fdx'],
  [6, '100BASE-T2 hdx'], [7, '100BASE-T2 fdx'], [8, 'PAUSE fdx'], [9, 'Asym PAUSE fdx'], [10, 'Sym PAUSE fdx'],
  [11, 'Asym and Sym PAUSE fdx'], [12, '1000BASE-X hdx'], [13, '1000BASE-X fdx'], [14, '1000BASE-T hdx'], [15, '1000BASE-T fdx'],
];

class TlvError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new TlvError('is not valid UTF-8');
  }
}

function need(bytes: Uint8Array, n: number, what: string): void {
  if (bytes.length < n) throw new TlvError(`${what} needs ${n} octets, got ${bytes.length}`);
}

function u16(bytes: Uint8Array, at = 0): number {
  need(bytes, at + 2, 'a 16-bit field');
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** `aabbccddeeff` bytes as `aa:bb:cc:dd:ee:ff`. */
export function formatMac(bytes: Uint8Array): string {
  need(bytes, 6, 'a MAC address');
  return [...bytes.subarray(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** 16 bytes as a compressed IPv6 address (RFC 5952: the longest run of ≥ 2 zero groups becomes `::`). */
export function formatIpv6(bytes: Uint8Array): string {
  need(bytes, 16, 'an IPv6 address');
  const groups = Array.from({ length: 8 }, (_, i) => u16(bytes, i * 2));
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) { best = i; bestLen = j - i; }
    i = j;
  }
  const part = (g: number[]) => g.map((x) => x.toString(16)).join(':');
  if (best < 0) return part(groups);
  return `${part(groups.slice(0, best))}::${part(groups.slice(best + bestLen))}`;
}

/** An IANA address-family-prefixed address (family 1 IPv4, 2 IPv6, 6 MAC). */
function ianaAddress(bytes: Uint8Array): string {
  need(bytes, 1, 'an address family');
  const family = bytes[0]!;
  const rest = bytes.subarray(1);
  if (family === 1) {
    need(rest, 4, 'an IPv4 address');
    return [...rest.subarray(0, 4)].join('.');
  }
  if (family === 2) return formatIpv6(rest);
  if (family === 6) return formatMac(rest);
  throw new TlvError(`address family ${family} is not supported`);
}

/** Chassis ID / Port ID value by subtype. */
function idValue(bytes: Uint8Array, kind: 'chassis' | 'port'): { subtype: string; value: string } {
  need(bytes, 1, 'a subtype');
  const subtype = bytes[0]!;
  const rest = bytes.subarray(1);
  const names = kind === 'chassis'
    ? { 1: 'entPhysAlias_c', 2: 'ifAlias', 3: 'entPhysAlias_p', 4: 'mac_address', 5: 'IANA_address', 6: 'ifName', 7: 'local' }
    : { 1: 'ifAlias', 2: 'entPhysicalAlias', 3: 'mac_address', 4: 'IANA_address', 5: 'ifName', 7: 'local' };
  const name = (names as Record<number, string>)[subtype];
  if (!name) throw new TlvError(`${kind} ID subtype ${subtype} is not known`);
  if (name === 'mac_address') return { subtype: name, value: formatMac(rest) };
  if (name === 'IANA_address') return { subtype: name, value: ianaAddress(rest) };
  return { subtype: name, value: text(rest) };
}

/** Decodes a Chassis ID TLV value; exported for local_link_connection. */
export function decodeChassisId(bytes: Uint8Array): { subtype: string; value: string } {
  return idValue(bytes, 'chassis');
}

/** Decodes a Port ID TLV value; exported for local_link_connection. */
export function decodePortId(bytes: Uint8Array): { subtype: string; value: string } {
  return idValue(bytes, 'port');
}

/** Hex text to bytes; null when it is not an even-length hex string. */
export function hexToBytes(value: string): Uint8Array | null {
  if (typeof value !== 'string' || value.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(value)) return null;
  return Uint8Array.from({ length: value.length / 2 }, (_, i) => parseInt(value.slice(i * 2, i * 2 + 2), 16));
}

/** The result of decoding one interface's TLVs. */
export interface ParsedLldp {
  /** Name/value pairs, e.g. `switch_chassis_id`, `switch_port_id`, `switch_system_name`, `switch_port_vlans`. */
  values: Record<string, Json>;
  /** One line per TLV that could not be decoded. */
  warnings: string[];
}

/** Decodes one interface's raw LLDP TLVs into Ironic's `parsed_lldp` name/value pairs. */
export function parseLldpTlvs(tlvs: readonly (readonly [number, string])[]): ParsedLldp {
  const values: Record<string, Json> = {};
  const warnings: string[] = [];
  const set = (name: string, value: Json) => {
    if (!(name in values)) values[name] = value;
  };
  const append = (name: string, value: Json) => {
    const list = (values[name] ??= []) as Json[];
    list.push(value);
  };
  const linkAggregation = (data: Uint8Array) => {
    if (data.length !== 5) throw new TlvError(`link aggregation needs 5 octets, got ${data.length}`);
    set('switch_port_link_aggregation_enabled', (data[0]! & 0x02) !== 0);
    set('switch_port_link_aggregation_support', (data[0]! & 0x01) !== 0);
    set('switch_port_link_aggregation_id', ((data[1]! << 24) >>> 0) + (data[2]! << 16) + (data[3]! << 8) + data[4]!);
  };
  const dot1 = (subtype: number, data: Uint8Array): boolean => {
    switch (subtype) {
      case 1: set('switch_port_untagged_vlan_id', u16(data)); return true;
      case 2: {
        if (data.length !== 3) throw new TlvError(`port and protocol VLAN ID needs 3 octets, got ${data.length}`);
        set('switch_port_protocol_vlan_enabled', (data[0]! & 0x04) !== 0);
        set('switch_port_protocol_vlan_support', (data[0]! & 0x02) !== 0);
        append('switch_port_protocol_vlan_ids', u16(data, 1));
        return true;
      }
      case 3: {
        const id = u16(data);
        need(data, 3, 'a VLAN name length');
        const len = data[2]!;
        need(data, 3 + len, 'a VLAN name');
        append('switch_port_vlans', { name: text(data.subarray(3, 3 + len)).replace(/\0+$/, ''), id });
        return true;
      }
      case 4: {
        need(data, 1, 'a protocol identity length');
        const len = data[0]!;
        need(data, 1 + len, 'a protocol identity');
        append('switch_protocol_identities', hex(data.subarray(1, 1 + len)));
        return true;
      }
      case 6: set('switch_port_management_vlan_id', u16(data)); return true;
      case 7: linkAggregation(data); return true;
      default: return false;
    }
  };
  const dot3 = (subtype: number, data: Uint8Array): boolean => {
    switch (subtype) {
      case 1: {
        if (data.length !== 5) throw new TlvError(`MAC/PHY configuration needs 5 octets, got ${data.length}`);
        const mau = MAU_TYPES[u16(data, 3)];
        if (mau === undefined) throw new TlvError(`MAU type ${u16(data, 3)} is not known`);
        const pmd = u16(data, 1);
        set('switch_port_autonegotiation_enabled', (data[0]! & 0x02) !== 0);
        set('switch_port_autonegotiation_support', (data[0]! & 0x01) !== 0);
        set('switch_port_physical_capabilities', PMD_CAPABILITIES.filter(([bit]) => (pmd >> (15 - bit)) & 1).map(([, n]) => n).sort());
        set('switch_port_mau_type', mau);
        return true;
      }
      case 3: linkAggregation(data); return true;
      case 4: set('switch_port_mtu', u16(data)); return true;
      default: return false;
    }
  };

  for (const [type, value] of tlvs) {
    const data = hexToBytes(value);
    if (!data) {
      warnings.push(`TLV type ${type}: value ${JSON.stringify(value).slice(0, 40)} is not hexadecimal`);
      continue;
    }
    if (data.length > MAX_VALUE_OCTETS) {
      warnings.push(`TLV type ${type}: ${data.length} octets exceed the maximum of ${MAX_VALUE_OCTETS}`);
      continue;
    }
    try {
      switch (type) {
        case LLDP_TLV.CHASSIS_ID: set('switch_chassis_id', decodeChassisId(data).value); break;
        case LLDP_TLV.PORT_ID: set('switch_port_id', decodePortId(data).value); break;
        case LLDP_TLV.PORT_DESCRIPTION: set('switch_port_description', text(data)); break;
        case LLDP_TLV.SYSTEM_NAME: set('switch_system_name', text(data)); break;
        case LLDP_TLV.SYSTEM_DESCRIPTION: set('switch_system_description', text(data)); break;
        case LLDP_TLV.SYSTEM_CAPABILITIES: {
          if (data.length !== 4) throw new TlvError(`system capabilities needs 4 octets, got ${data.length}`);
          const caps = (word: number) => CAPABILITIES.filter(([bit]) => (word >> bit) & 1).map(([, n]) => n);
          set('switch_capabilities_support', caps(u16(data)));
          set('switch_capabilities_enabled', caps(u16(data, 2)));
          break;
        }
        case LLDP_TLV.MANAGEMENT_ADDRESS: {
          need(data, 2, 'a management address');
          const address = ianaAddress(data.subarray(1));
          if (address) append('switch_mgmt_addresses', address);
          break;
        }
        case LLDP_TLV.ORG_SPECIFIC: {
          need(data, 4, 'an organisationally specific TLV');
          const oui = hex(data.subarray(0, 3));
          const subtype = data[3]!;
          const rest = data.subarray(4);
          if (oui === OUI_8021) dot1(subtype, rest);
          else if (oui === OUI_8023) dot3(subtype, rest);
          else warnings.push(`TLV type 127: organisationally unique ID ${oui} is not recognised`);
          break;
        }
        default: break; // END, TTL and unknown types carry nothing Ironic reports.
      }
    } catch (err) {
      if (!(err instanceof TlvError)) throw err;
      warnings.push(`TLV type ${type}: ${err.message}`);
    }
  }
  return { values, warnings };
}
