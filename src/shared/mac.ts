/**
 * Hardware addresses as Ingot reads them everywhere (port API, inspection data, DHCP host entries, boot
 * files, the agent's BOOTIF): the one place that knows their spellings, checks and normal form.
 * Ironic counterparts: `ironic.common.utils.validate_and_normalize_mac`, oslo `netutils.is_valid_mac`,
 * `ironic.common.utils.get_pxe_mac` (the pxelinux BOOTIF form).
 *
 * The normal form is lower-case hex octets separated by colons (`52:54:00:ab:cd:ef`).
 */
import { fail } from './errors.js';

const MAC48_COLONS = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i;
const MAC48 = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/i;
/** IPoIB hardware addresses are 20 octets; agents report them as they are, with colons. */
const MAC_IB = /^[0-9a-f]{2}(:[0-9a-f]{2}){19}$/i;
/** pxelinux's BOOTIF: `<ARP hardware type>-<mac with dashes>`, e.g. `01-52-54-00-ab-cd-ef`. */
const BOOTIF = /^[0-9a-f]{2}-([0-9a-f]{2}(-[0-9a-f]{2}){5})$/i;

/**
 * Which spellings a caller takes. A 6-octet Ethernet MAC with colons is always taken; letters may be of
 * either case.
 */
export interface MacRules {
  /** Also take a 20-octet IPoIB address (colon separated). */
  readonly infiniband?: boolean;
  /** Also take dashes between the octets of a 6-octet MAC (`52-54-00-ab-cd-ef`). */
  readonly dashes?: boolean;
}

/** A port's or port group's address at the API, as Ironic takes it: an Ethernet or IPoIB address, colons only. */
export const PORT_ADDRESS: MacRules = { infiniband: true };
/** What a DHCP host entry or a boot config file name can hold: a 6-octet Ethernet MAC, colons or dashes. */
export const ETHERNET_MAC: MacRules = { dashes: true };
/** Any hardware address an agent may report: an Ethernet MAC (colons or dashes) or an IPoIB address. */
export const HARDWARE_ADDRESS: MacRules = { infiniband: true, dashes: true };

/** True when `text` is a hardware address under `rules` (by default a 6-octet MAC with colons, as oslo `is_valid_mac`). */
export function isMac(text: string, rules: MacRules = {}): boolean {
  return (rules.dashes ? MAC48 : MAC48_COLONS).test(text) || (rules.infiniband === true && MAC_IB.test(text));
}

/** True for a 6-octet Ethernet MAC, colons or dashes ({@link ETHERNET_MAC}). */
export function isMac48(text: string): boolean {
  return isMac(text, ETHERNET_MAC);
}

/** True for any hardware address an agent may report ({@link HARDWARE_ADDRESS}). */
export function isHardwareAddress(text: string): boolean {
  return isMac(text, HARDWARE_ADDRESS);
}

/** `text` in the normal form when it is a hardware address under `rules`, else null (no trimming). */
export function parseMac(text: string, rules: MacRules = {}): string | null {
  return isMac(text, rules) ? text.toLowerCase().replace(/-/g, ':') : null;
}

/**
 * The normal form of `value` (trimmed first); throws InvalidParameterValue naming the value when it is
 * not a hardware address under `rules` (by default {@link PORT_ADDRESS}, the API's rule). The message is
 * Ironic's (`Expected a MAC address but received …`), saying "Ethernet" when only 6-octet MACs are taken.
 */
export function normalizeMac(value: unknown, rules: MacRules = PORT_ADDRESS): string {
  const mac = typeof value === 'string' ? parseMac(value.trim(), rules) : null;
  if (mac !== null) return mac;
  const shown = JSON.stringify(value) ?? String(value);
  throw rules.infiniband ? fail('macInvalid', { value: shown }) : fail('ethernetMacInvalid', { value: shown });
}

/** {@link normalizeMac} of each value, de-duplicated in first-seen order. */
export function normalizeMacs(values: Iterable<string>, rules: MacRules = PORT_ADDRESS): string[] {
  return [...new Set([...values].map((v) => normalizeMac(v, rules)))];
}

/**
 * The MAC of a boot NIC named in pxelinux's BOOTIF form (`01-aa-bb-cc-dd-ee-ff`: the ARP hardware type,
 * then the MAC with dashes, as Ironic's `get_pxe_mac` reads it) or as a plain Ethernet MAC, trimmed, in
 * the normal form; null when absent or unreadable.
 */
export function macFromBootif(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  const m = BOOTIF.exec(text);
  return parseMac(m ? m[1]! : text, ETHERNET_MAC);
}
