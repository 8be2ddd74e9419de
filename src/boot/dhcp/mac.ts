/** MAC address checks shared by the DHCP providers. */
import { fail } from '../../shared/errors.js';
import { isMac48, normalizeMac as canonicalMac } from '../../shared/mac.js';

/**
 * `mac` as dnsmasq and Ironic's ports write it: six lower-case hex octets separated by colons.
 * Accepts colons or dashes; throws InvalidParameterValue for anything else (only Ethernet MACs can be
 * written into host entries).
 */
export function normalizeMac(mac: string): string {
  const text = mac.trim();
  if (!isMac48(text)) throw fail('InvalidParameterValue', `"${mac}" is not an Ethernet MAC address (expected six hex octets, e.g. 52:54:00:12:34:56).`);
  return canonicalMac(text);
}

/** Normalized, de-duplicated MACs in first-seen order. */
export function normalizeMacs(macs: Iterable<string>): string[] {
  return [...new Set([...macs].map(normalizeMac))];
}
